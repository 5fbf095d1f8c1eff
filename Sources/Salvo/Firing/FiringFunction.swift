import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a call is fired: the swappable piece of every ``NetCall``.
///
/// Production firing sends through a ``NetworkSession``; mock firing answers from canned data; both
/// run the call's actions and hand the outcome to the responder through the same dispatch.
///
/// ```swift
/// call.firingFunction = .production                      // URLSession.shared
/// call.firingFunction = .session(myConfiguredURLSession) // any NetworkSession
/// ```
public struct FiringFunction: Sendable {
    private let body: @Sendable (NetCall) -> NetworkTask

    /// A firing function from a closure that starts the call and returns its task.
    public init(_ body: @escaping @Sendable (NetCall) -> NetworkTask) {
        self.body = body
    }

    /// Fires `call`.
    public func callAsFunction(_ call: NetCall) -> NetworkTask {
        body(call)
    }

    /// Fires through `URLSession.shared`.
    public static var production: FiringFunction { .session(URLSession.shared) }

    /// Fires through `session`: builds the request, runs the actions, sends it, and dispatches the outcome.
    ///
    /// - Parameters:
    ///   - session: what sends the request.
    ///   - clock: what waits before a retry an action asked for; ``NetworkClock/live`` by default.
    public static func session(_ session: any NetworkSession, clock: NetworkClock = .live) -> FiringFunction {
        FiringFunction { call in call.run(through: session, clock: clock) }
    }
}
