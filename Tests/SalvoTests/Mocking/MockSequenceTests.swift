import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Item 1 of issue 15: a route that answers differently call after call.
@Suite struct MockSequenceTests {
    static let server = ServerConfig(host: "shop.example")

    static func text(_ endpoint: Endpoint, _ firing: FiringFunction) async -> String {
        let call = NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: firing)
        guard let response = try? await call.response() else { return "failed" }
        return String(decoding: response.data, as: UTF8.self)
    }

    @Test func aSequenceAnswersEachEntryOnceInOrderThenTheFallback() async {
        let firing = FiringFunction.mock(MockRoutes([.get("/feed", .sequence([.text("one"), .text("two")], then: .text("rest")))]))
        var answers: [String] = []
        for _ in 0..<4 { answers.append(await Self.text(.get("/feed"), firing)) }
        #expect(answers == ["one", "two", "rest", "rest"])
    }

    @Test func aSequenceWithoutAFallbackSaysItWasUsedUp() async {
        let firing = FiringFunction.mock(.sequence([.text("only")]))
        let call = NetCall(server: Self.server, endpoint: .get("/x"), callbackQueue: .immediate, firingFunction: firing)
        _ = try? await call.response()
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains("used up: it gives 1 answers and this was call 2") == true)
    }

    @Test func theFirstCallsFailThenTheRouteSucceedsSoARetryActionGetsThrough() async throws {
        let firing = FiringFunction.mock(.failing(2, with: .status(503), then: .text("ok")), clock: .immediate)
        let call = NetCall(server: Self.server, endpoint: .get("/x"), actions: [RetryAction(maxAttempts: 3, baseDelay: 0, jitter: 0)],
                           callbackQueue: .immediate, firingFunction: firing)
        #expect(String(decoding: try await call.response().data, as: UTF8.self) == "ok")
    }

    @Test func aHugeFailureCountCostsNothing() async {
        let firing = FiringFunction.mock(.failing(Int.max, with: .failure(.timedOut), then: .text("never")))
        #expect(await Self.text(.get("/x"), firing) == "failed")
    }

    @Test func aScenarioSwitchesWhatARouteAnswersAfterAnotherRouteIsCalled() async {
        let cart = MockScenario("cart", startingAt: "empty")
        let firing = FiringFunction.mock(MockRoutes([
            .get("/cart", .text("empty")).when(cart, is: "empty"),
            .get("/cart", .text("tea")).when(cart, is: "filled"),
            .post("/cart/items", .status(201)).moving(cart, to: "filled"),
        ]))
        #expect(await Self.text(.get("/cart"), firing) == "empty")
        #expect(await Self.text(.post("/cart/items"), firing) == "")
        #expect(await Self.text(.get("/cart"), firing) == "tea")
        #expect(cart.state == "filled")
        cart.reset()
        #expect(await Self.text(.get("/cart"), firing) == "empty")
    }

    @Test func aRequestNoScenarioStateAllowsNamesTheState() async {
        let cart = MockScenario("cart", startingAt: "empty")
        let call = NetCall(server: Self.server, endpoint: .get("/cart"), callbackQueue: .immediate,
                           firingFunction: .mock(MockRoutes([.get("/cart", .text("tea")).when(cart, is: "filled")])))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains(#"scenario cart is "filled": scenario cart is "empty""#) == true)
    }

    @Test func sequencesKeepTheirOwnAndTheOuterLatency() {
        let response = MockResponse.sequence([.text("a").delayed(by: 1)]).delayed(by: 2)
        #expect(response.next().latency == 3)
    }
}
