@_spi(Transport) import Salvo

extension FiringFunction {
    /// Fires through AsyncHTTPClient: every call given this firing function goes out through
    /// `session`, the process-wide ``AsyncHTTPClientSession/shared`` by default.
    ///
    /// Set it where the app's calls get their firing function, once, as the composition root
    /// does with any other:
    /// ```swift
    /// let environment = ServiceEnvironment(server: api, firing: .asyncHTTPClient())
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session that sends the requests.
    ///   - clock: what waits before a retry an action asked for; ``Salvo/NetworkClock/live`` by default.
    public static func asyncHTTPClient(_ session: AsyncHTTPClientSession = .shared, clock: NetworkClock = .live) -> FiringFunction {
        .session(session, clock: clock)
    }
}
