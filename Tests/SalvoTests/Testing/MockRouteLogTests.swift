import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// Item 3 of issue 15: how often each route was hit, with which requests, which were never used,
/// and a strict check that fails the test.
@Suite struct MockRouteLogTests {
    static let server = ServerConfig(host: "shop.example", basePath: "v1")

    static func fire(_ endpoint: Endpoint, _ firing: FiringFunction) async {
        _ = try? await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: firing).response()
    }

    static func table(_ log: MockRouteLog) -> FiringFunction {
        .mock(MockRoutes(under: "/v1", [
            .get("/cart", .json(["items": [String]()])),
            .post("/cart/items", .status(201)),
            .delete("/cart", .status(204)),
        ]).logging(into: log))
    }

    @Test func theLogCountsHitsPerRouteWithTheirRequestsAndListsUnusedRoutes() async {
        let log = MockRouteLog()
        let firing = Self.table(log)
        await Self.fire(.get("/cart"), firing)
        await Self.fire(.post("/cart/items", body: .json(["sku": "tea"])), firing)
        await Self.fire(.get("/cart", query: ["fresh": "1"]), firing)
        #expect(log.hitCounts == [2, 1, 0])
        #expect(log.hits(of: "GET /cart").map { $0.url?.query } == [nil, "fresh=1"])
        #expect(log.hits(ofRouteAt: 1).first?.httpBody == Data(#"{"sku":"tea"}"#.utf8))
        #expect(log.unusedRoutes == ["DELETE /cart"])
        #expect(log.problems().isEmpty)
        #expect(log.problems(strict: true) == ["Route DELETE /cart was never used; remove it or fire the call it stands for."])
    }

    @Test func unexpectedRequestsAreProblemsEvenWhenNotStrict() async {
        let log = MockRouteLog()
        await Self.fire(.put("/cart"), Self.table(log))
        #expect(log.unmatchedRequests.count == 1)
        #expect(log.problems() == ["Unexpected request PUT https://shop.example/v1/cart: no mock route matched it."])
    }

    @Test func verifyRecordsAnIssuePerProblemInSwiftTesting() async {
        let log = MockRouteLog()
        await Self.fire(.put("/cart"), Self.table(log))
        let expected = log.problems(strict: true)
        #expect(expected.contains { $0.hasPrefix("Unexpected request PUT") } && expected.contains { $0.hasPrefix("Route ") }, "\(expected)")
        let recorded = Locked<[String]>([])
        withKnownIssue {
            log.verify(strict: true)
        } matching: { issue in
            recorded.withLock { $0 += issue.comments.map(\.rawValue) }
            return issue.comments.contains { expected.contains($0.rawValue) }
        }
        #expect(recorded.withLock { $0 } == expected, "one issue per problem, each problem once")
    }

    @Test func verifyCallsTheFailureClosureForXCTest() async {
        let log = MockRouteLog()
        let firing = Self.table(log)
        await Self.fire(.get("/cart"), firing)
        var failures: [String] = []
        log.verify(strict: true) { failures.append($0) }
        #expect(failures.count == 2)
        log.reset()
        #expect(log.entries.isEmpty && log.routes.count == 3)
    }

    @Test func routesAddedAfterLoggingStartsAreLoggedToo() async {
        let log = MockRouteLog()
        var routes = MockRoutes(under: "/v1", [.get("/a", .status(200))]).logging(into: log)
        routes.add(.get("/b", .status(200)))
        await Self.fire(.get("/b"), .mock(routes))
        #expect(log.routes == ["GET /a", "GET /b"])
        #expect(log.hitCounts == [0, 1])
    }
}

/// The `.verifiesMockRoutes` trait: a fresh log per test, verified when the test ends.
@Suite struct MockRouteLogTraitTests {
    @Test(.verifiesMockRoutes(strict: true)) func aTestThatUsesEveryRoutePasses() async throws {
        let log = try #require(MockRouteLog.current)
        await MockRouteLogTests.fire(.get("/cart"), .mock(MockRoutes(under: "/v1", [.get("/cart", .status(200))]).logging(into: log)))
        #expect(log.entries.count == 1)
    }

    @Test func eachProblemBecomesAnIssueAtTheEndOfTheTest() async throws {
        let trait = MockRouteLogTrait.verifiesMockRoutes(strict: true)
        let test = try #require(Test.current)
        let expected = [
            "Unexpected request PUT https://shop.example/v1/cart: no mock route matched it.",
            "Route GET /cart was never used; remove it or fire the call it stands for.",
        ]
        let recorded = Locked<[String]>([])
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: nil) {
                let log = try #require(MockRouteLog.current)
                await MockRouteLogTests.fire(.put("/cart"), .mock(MockRoutes(under: "/v1", [.get("/cart", .status(200))]).logging(into: log)))
            }
        } matching: { issue in
            recorded.withLock { $0 += issue.comments.map(\.rawValue) }
            return issue.comments.contains { expected.contains($0.rawValue) }
        }
        #expect(recorded.withLock { $0 } == expected, "the trait records each problem once, at the end of the test")
    }
}
