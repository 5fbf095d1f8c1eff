import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Retries against the loopback server's `/flaky/<key>` route, counted server-side.
@Suite struct RetryActionIntegrationTests {
    private struct Flaky: Decodable, Sendable { let ok: Bool; let attempt: Int }

    private func flakyCall(
        _ key: String,
        failures: Int,
        method: HTTPMethod = .get,
        retryAfter: String? = nil,
        policy: RetryAction = RetryAction(baseDelay: 0.01),
        over transport: TransportUnderTest
    ) async throws -> NetCall {
        var endpoint = Endpoint(method: method, path: "/flaky/\(key)", query: [
            URLQueryItem(name: "failures", value: "\(failures)"), URLQueryItem(name: "status", value: "503"),
        ])
        if let retryAfter { endpoint = endpoint.setting(query: "retry_after", to: retryAfter) }
        return NetCall(server: try await .loopback(), endpoint: endpoint, actions: [policy], firingFunction: transport.firing)
    }

    @Test(arguments: TransportUnderTest.all)
    func aRouteFailingTwiceSucceedsOnTheThirdAttempt(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let flaky = try await withTimeout { try await flakyCall(key, failures: 2, over: transport).value(as: Flaky.self) }
        #expect(flaky.attempt == 3)
        #expect(try await LoopbackServer.count(path: "/flaky/\(key)") == 3)
    }

    @Test(arguments: TransportUnderTest.all)
    func aPOSTIsNotRetriedByDefault(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let outcome = await result(of: try await flakyCall(key, failures: 2, method: .post, over: transport))
        guard case .failure(let error) = outcome else { Issue.record("expected the 503"); return }
        #expect(error.statusCode == 503)
        #expect(try await LoopbackServer.count(path: "/flaky/\(key)") == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func aPOSTIsRetriedWhenItOptsIn(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let policy = RetryAction(baseDelay: 0.01, retryableMethods: RetryAction().retryableMethods.union([.post]))
        let flaky = try await withTimeout { try await flakyCall(key, failures: 2, method: .post, policy: policy, over: transport).value(as: Flaky.self) }
        #expect(flaky.attempt == 3)
    }

    @Test(arguments: TransportUnderTest.all)
    func retryAfterFromTheServerSetsTheDelay(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let time = TestClock()
        var call = try await flakyCall(key, failures: 1, retryAfter: "7", policy: RetryAction(baseDelay: 0), over: transport)
        call.firingFunction = .session(transport.session, clock: time.clock)
        let response = Task { [call] in try await call.response() }
        #expect(await time.waitForSleepers(1, timeout: 10))
        #expect(time.sleeps == [7])
        #expect(try await LoopbackServer.count(path: "/flaky/\(key)") == 1)
        time.advance(by: 7)
        _ = try await withTimeout { try await response.value }
        #expect(try await LoopbackServer.count(path: "/flaky/\(key)") == 2)
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingTheCallCancelsThePendingRetry(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let errors = Transcript()
        var call = try await flakyCall(key, failures: 5, retryAfter: "30", over: transport)
        call.callbackQueue = .immediate
        call.responder = NetworkResponder(errorHandler: { errors.append($0.isCancelled ? "cancelled" : "\($0)") })
        let task = call.fire()
        try await withTimeout {
            while try await LoopbackServer.count(path: "/flaky/\(key)") == 0 { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        task.cancel()
        #expect(errors.all == ["cancelled"])
        // Nothing to await for "no second attempt": give a wrongly scheduled retry time to show.
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(try await LoopbackServer.count(path: "/flaky/\(key)") == 1)
    }
}
