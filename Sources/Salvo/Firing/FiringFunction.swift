import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a call is fired: the swappable piece of every ``NetCall``.
///
/// Production firing sends through a ``NetworkSession``; mock firing answers from canned data; both
/// run the call's actions and hand the outcome to the ``FiringChannel`` the way of firing chose
/// (the responder for `fire()`, the awaiting caller for `value()`, the stream for `bytes()`).
///
/// ```swift
/// call.firingFunction = .production                      // URLSession.shared
/// call.firingFunction = .session(myConfiguredURLSession) // any NetworkSession
/// call.firingFunction = FiringFunction { call, channel in // your own, wrapping another
///     FiringFunction.production(call, channel)
/// }
/// ```
public struct FiringFunction: Sendable {
    private let body: @Sendable (NetCall, FiringChannel) -> NetworkTask

    /// A firing function from a closure that starts the call, hands its outcome to the channel,
    /// and returns its task.
    public init(_ body: @escaping @Sendable (NetCall, FiringChannel) -> NetworkTask) {
        self.body = body
    }

    /// Fires `call`, handing its outcome to `channel`.
    public func callAsFunction(_ call: NetCall, _ channel: FiringChannel) -> NetworkTask {
        body(call, channel)
    }

    /// Fires through `URLSession.shared`.
    public static var production: FiringFunction { .session(URLSession.shared) }

    /// Fires through `session`: builds the request, runs the actions, sends it, and dispatches the outcome.
    ///
    /// - Parameters:
    ///   - session: what sends the request.
    ///   - clock: what waits before a retry an action asked for; ``NetworkClock/live`` by default.
    public static func session(_ session: any NetworkSession, clock: NetworkClock = .live) -> FiringFunction {
        FiringFunction { call, channel in call.run(through: session, clock: clock, reportingTo: channel) }
    }
}
