import Salvo

/// The firing module: a refresh button that fires whatever calls it was handed. It imports Salvo
/// alone, so it cannot name an endpoint or a model type: it knows only `Fireable`.
public struct RefreshButton {
    /// The calls one tap fires, of any value types.
    public let calls: [any Fireable]

    public init(calls: [any Fireable]) {
        self.calls = calls
    }

    /// Fires every call; each one's handlers, set where it was configured, receive its outcome.
    @discardableResult
    public func tap() -> [NetworkTask] {
        calls.map { $0.fire() }
    }
}
