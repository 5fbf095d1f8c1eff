import Foundation

/// A snapshot of a ``Refresher``: the last value that arrived and how the latest refresh is going.
public struct RefreshState<Value: Sendable>: Sendable {
    /// The last value that arrived; `nil` until the first refresh succeeds. A failure keeps it.
    public var value: Value?
    /// Whether a refresh is in flight.
    public var isRefreshing: Bool
    /// The error of the last failed refresh; `nil` once one succeeds.
    public var error: NetworkError?
    /// When ``value`` arrived.
    public var updatedAt: Date?

    /// A state from its parts; a new refresher starts empty.
    package init(value: Value? = nil, isRefreshing: Bool = false, error: NetworkError? = nil, updatedAt: Date? = nil) {
        self.value = value
        self.isRefreshing = isRefreshing
        self.error = error
        self.updatedAt = updatedAt
    }
}
