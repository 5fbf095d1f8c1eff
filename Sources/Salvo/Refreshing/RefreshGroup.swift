/// Several refreshables refreshed, and calls fired, as one: all start together, and
/// ``refresh()`` returns when every one is done.
///
/// ```swift
/// let dashboard = RefreshGroup([balanceRefresher, transactionsPager], firing: [markSeen, badgeCount])
/// // SwiftUI: .refreshable { await dashboard.refresh() }
/// ```
///
/// Members are ``Refreshable`` controllers (a ``Refresher``, a ``Pager``, another group): each keeps
/// its value and error. Calls are any ``Fireable`` of any value type (a ``TypedCall`` with its
/// typed handlers, `valueHandler` and `apiErrorHandler`, a ``NetCall`` with its responder):
/// each refresh fires them once and waits until their outcome was delivered to their handlers.
/// A group keeps no outcome of its own; a call's outcome goes to its handlers, not to ``error``.
public struct RefreshGroup: Refreshable {
    /// The members, refreshed together.
    let members: [any Refreshable]
    /// The calls fired by every refresh.
    let calls: [any Fireable]
    /// How many firings of this group have not delivered their outcome yet.
    private let firingsInFlight = Locked(0)

    /// A group that refreshes `members` and fires `calls` together; its ``error`` reports the
    /// members in this order.
    ///
    /// - Parameters:
    ///   - members: the controllers refreshed by every refresh.
    ///   - calls: the calls fired by every refresh, of any value type; their outcomes go to the
    ///     handlers set where each call was configured.
    public init(_ members: [any Refreshable], firing calls: [any Fireable] = []) {
        self.members = members
        self.calls = calls
    }

    /// Refreshes every member and fires every call at once; returns when all are done, a call
    /// once its handlers ran (those its responder runs on its callback queue; a typed call's
    /// typed handlers with the default ``CallbackQueue/main``). A failure in one does not stop the
    /// others; each member keeps its own error, each call hands its own to its handlers.
    public func refresh() async {
        let tasks = calls.map { $0.fire() }
        firingsInFlight.withLock { $0 += tasks.count }
        await withTaskGroup(of: Void.self) { group in
            for member in members {
                group.addTask { await member.refresh() }
            }
            for task in tasks {
                group.addTask {
                    await task.delivered()
                    firingsInFlight.withLock { $0 -= 1 }
                }
            }
        }
    }

    /// Whether any member is refreshing or a call the group fired has not delivered its outcome.
    public var isRefreshing: Bool {
        firingsInFlight.withLock { $0 > 0 } || members.contains { $0.isRefreshing }
    }

    /// The first member error, in member order; `nil` when none failed. The calls' errors go to
    /// their handlers.
    public var error: NetworkError? { members.lazy.compactMap(\.error).first }
}
