/// Something that can load its content again: a ``Pager``, a ``Refresher``, or a ``RefreshGroup``
/// of them, so one pull-to-refresh can drive a whole screen.
///
/// ```swift
/// let screen = RefreshGroup([profile, posts])   // a Refresher and a Pager
/// await screen.refresh()                        // both at once; returns when both are in
/// ```
public protocol Refreshable: Sendable {
    /// Loads the content again and replaces it when it arrives; returns when done or failed.
    func refresh() async
    /// Whether a refresh is in flight.
    var isRefreshing: Bool { get }
    /// The error of the last failed load, `nil` once a load succeeds.
    var error: NetworkError? { get }
}

extension Pager: Refreshable {}
