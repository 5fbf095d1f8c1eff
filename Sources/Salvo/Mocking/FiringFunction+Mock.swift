import Foundation

extension FiringFunction {
    /// Answers every call with `response`, offline, through the same pipeline as production firing.
    ///
    /// ```swift
    /// call.firingFunction = .mock(.json(user))
    /// call.firingFunction = .mock(.status(500))
    /// call.firingFunction = .mock(.failure(.notConnectedToInternet))
    /// ```
    ///
    /// - Parameters:
    ///   - response: the answer to every call.
    ///   - conditions: simulated latency and failures.
    ///   - clock: what waits out latency and retry delays; pass `.immediate` or a test clock in tests.
    public static func mock(_ response: MockResponse, conditions: NetworkConditions = NetworkConditions(), clock: NetworkClock = .live) -> FiringFunction {
        .session(MockSession(conditions: conditions, clock: clock, answering: response), clock: clock)
    }

    /// Answers every call from `routes`; a request no route matches fails naming its method and URL.
    ///
    /// ```swift
    /// AppEnvironment.firingFunction = .mock(routes, conditions: .slow(seed: 3))
    /// ```
    public static func mock(_ routes: MockRoutes, conditions: NetworkConditions = NetworkConditions(), clock: NetworkClock = .live) -> FiringFunction {
        .session(MockSession(conditions: conditions, clock: clock) { routes.response(for: $0) }, clock: clock)
    }

    /// Answers every call with what `answer` computes from the request.
    public static func mock(
        conditions: NetworkConditions = NetworkConditions(),
        clock: NetworkClock = .live,
        answer: @escaping @Sendable (MockRequest) -> MockResponse
    ) -> FiringFunction {
        .session(MockSession(conditions: conditions, clock: clock, answer: answer), clock: clock)
    }
}
