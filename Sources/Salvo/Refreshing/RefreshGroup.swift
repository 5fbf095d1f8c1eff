/// Several refreshables refreshed as one: all start together, and ``refresh()`` returns when
/// every one is done.
///
/// ```swift
/// let dashboard = RefreshGroup([balanceRefresher, transactionsPager, offersRefresher])
/// // SwiftUI: .refreshable { await dashboard.refresh() }
/// ```
public struct RefreshGroup: Refreshable {
    /// The members, refreshed together.
    let members: [any Refreshable]

    /// A group of `members`, refreshed together and reported in this order.
    public init(_ members: [any Refreshable]) {
        self.members = members
    }

    /// Refreshes every member at once; returns when all are done. A failure in one does not
    /// stop the others; each keeps its own error.
    public func refresh() async {
        await withTaskGroup(of: Void.self) { group in
            for member in members {
                group.addTask { await member.refresh() }
            }
        }
    }

    /// Whether any member is refreshing.
    public var isRefreshing: Bool { members.contains { $0.isRefreshing } }

    /// The first member error, in member order; `nil` when none failed.
    public var error: NetworkError? { members.lazy.compactMap(\.error).first }
}
