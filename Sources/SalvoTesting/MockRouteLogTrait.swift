@_spi(Transport) import Salvo
#if canImport(Testing)
import Testing
#endif

extension MockRouteLog {
    /// The log of the running test, set by the `.verifiesMockRoutes(…)` trait; nil outside one.
    @TaskLocal public static var current: MockRouteLog?
}

#if canImport(Testing)
/// Gives a test a fresh `MockRouteLog` as `MockRouteLog.current` and verifies it when the test
/// ends: every unexpected request, and in strict mode every route never used, fails the test.
///
/// ```swift
/// @Test(.verifiesMockRoutes(strict: true)) func checkoutUsesEveryRoute() async throws {
///     let log = try #require(MockRouteLog.current)
///     let api = ShopAPI(firing: .mock(shopRoutes().logging(into: log)))
///     …
/// }
/// ```
public struct MockRouteLogTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether a route never used fails the test too.
    public let isStrict: Bool

    /// Applied to a suite, every test in it gets its own log.
    public var isRecursive: Bool { true }

    /// Runs `function` with a fresh `MockRouteLog.current`, then records an issue per problem.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        let log = MockRouteLog()
        try await MockRouteLog.$current.withValue(log) {
            try await function()
        }
        for problem in log.problems(strict: isStrict) {
            Issue.record(Comment(rawValue: problem), sourceLocation: test.sourceLocation)
        }
    }
}

extension Trait where Self == MockRouteLogTrait {
    /// Gives the test its own `MockRouteLog.current` and fails it, when it ends, for unexpected
    /// requests and, when `strict`, for routes never used.
    public static func verifiesMockRoutes(strict: Bool = false) -> MockRouteLogTrait {
        MockRouteLogTrait(isStrict: strict)
    }
}
#endif
