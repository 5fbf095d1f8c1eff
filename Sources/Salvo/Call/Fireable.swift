/// Something that can be fired without knowing anything about what it calls.
///
/// ```swift
/// func refreshButtonTapped(_ call: any Fireable) { call.fire() }
/// ```
public protocol Fireable: Sendable {
    /// Starts the work and returns a task that can cancel it.
    @discardableResult
    func fire() -> NetworkTask
}
