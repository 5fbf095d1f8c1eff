import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @_spi(Testing) @testable import Salvo
import SalvoTesting

@Suite struct RetryActionTests {
    private let server = ServerConfig(scheme: "https", host: "api.test")

    private func outcome(status: Int, headers: [String: String] = [:]) -> AttemptOutcome {
        let url = URL(string: "https://api.test/x")!
        return AttemptOutcome(request: URLRequest(url: url), urlResponse: HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headers), data: Data())
    }

    private func call(_ method: HTTPMethod = .get) -> NetCall {
        NetCall(server: server, endpoint: Endpoint(method: method, path: "/x"))
    }

    private func decision(_ policy: RetryAction, _ outcome: AttemptOutcome, method: HTTPMethod = .get, attempt: Int = 1) async -> String {
        switch await policy.decide(after: outcome, for: call(method), attempt: attempt) {
        case .proceed: return "proceed"
        case .retry: return "retry"
        case .retryAfter(let seconds): return "after \(seconds)"
        case .fail: return "fail"
        }
    }

    @Test func backoffDoublesAndStopsAtTheMaximum() {
        let policy = RetryAction(baseDelay: 1, maxDelay: 5, jitter: 0.5).drawing({ 0 })
        #expect((1...5).map(policy.delay(afterAttempt:)) == [1, 2, 4, 5, 5])
        #expect(policy.delay(afterAttempt: 10_000) == 5)
    }

    @Test func jitterTakesUpToItsFractionOffTheDelay() {
        #expect(RetryAction(baseDelay: 2, jitter: 0.5).drawing({ 0.999_999 }).delay(afterAttempt: 2) > 2)
        #expect(RetryAction(baseDelay: 2, jitter: 0.5).drawing({ 0.5 }).delay(afterAttempt: 2) == 3)
        #expect(RetryAction(baseDelay: 2, jitter: 0).drawing({ 0.7 }).delay(afterAttempt: 2) == 4)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retriesTheDefaultStatuses(_ status: Int) async {
        let policy = RetryAction(baseDelay: 1).drawing({ 0 })
        #expect(await decision(policy, outcome(status: status)) == "after 1.0")
    }

    @Test(arguments: [200, 400, 401, 404, 501])
    func doesNotRetryOtherStatuses(_ status: Int) async {
        #expect(await decision(RetryAction(), outcome(status: status)) == "proceed")
    }

    @Test func retriesTransientTransportErrorsOnly() async {
        let policy = RetryAction(baseDelay: 1).drawing({ 0 })
        let request = URLRequest(url: URL(string: "https://api.test/x")!)
        #expect(await decision(policy, AttemptOutcome(request: request, error: .transport(URLError(.timedOut)))) == "after 1.0")
        #expect(await decision(policy, AttemptOutcome(request: request, error: .transport(URLError(.badURL)))) == "proceed")
        #expect(await decision(policy, AttemptOutcome(request: request, error: .cancelled)) == "proceed")
    }

    @Test func anErrorChosenByAnInnerActionIsNotRetriedForItsStatus() async {
        var refused = outcome(status: 503)
        refused.error = .unacceptableResponse(ResponseProblem("refused"))
        #expect(await decision(RetryAction(), refused) == "proceed")
    }

    @Test func postAndPatchAreRetriedOnlyWhenOptedIn() async {
        let policy = RetryAction(baseDelay: 1).drawing({ 0 })
        #expect(await decision(policy, outcome(status: 503), method: .post) == "proceed")
        #expect(await decision(policy, outcome(status: 503), method: .patch) == "proceed")
        #expect(await decision(policy, outcome(status: 503), method: .put) == "after 1.0")
        let optedIn = RetryAction(baseDelay: 1, retryableMethods: RetryAction().retryableMethods.union([.post])).drawing { 0 }
        #expect(await decision(optedIn, outcome(status: 503), method: .post) == "after 1.0")
    }

    @Test func stopsAfterMaxAttempts() async {
        let policy = RetryAction(maxAttempts: 3, baseDelay: 1).drawing({ 0 })
        #expect(await decision(policy, outcome(status: 503), attempt: 2) == "after 2.0")
        #expect(await decision(policy, outcome(status: 503), attempt: 3) == "proceed")
    }

    @Test func honoursRetryAfterInSeconds() async {
        let policy = RetryAction(baseDelay: 1).drawing({ 0 })
        #expect(await decision(policy, outcome(status: 429, headers: ["Retry-After": "7"])) == "after 7.0")
    }

    @Test func honoursRetryAfterAsAnHTTPDate() async {
        let now = Date(timeIntervalSince1970: 784_111_767) // Sun, 06 Nov 1994 08:49:27 GMT
        let policy = RetryAction().dated({ now })
        #expect(await decision(policy, outcome(status: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"])) == "after 10.0")
        #expect(await decision(policy, outcome(status: 503, headers: ["Retry-After": "Sunday, 06-Nov-94 08:49:37 GMT"])) == "after 10.0")
        #expect(await decision(policy, outcome(status: 503, headers: ["Retry-After": "Sun Nov  6 08:49:37 1994"])) == "after 10.0")
    }

    @Test func aRetryAfterLongerThanTheLimitEndsTheRetries() async {
        let policy = RetryAction(maxRetryAfter: 60)
        #expect(await decision(policy, outcome(status: 503, headers: ["Retry-After": "3600"])) == "proceed")
    }

    @Test func anUnreadableRetryAfterFallsBackToTheBackoff() async {
        let policy = RetryAction(baseDelay: 1).drawing({ 0 })
        #expect(await decision(policy, outcome(status: 503, headers: ["Retry-After": "soon"])) == "after 1.0")
    }

    @Test func firesUntilSuccessWithinTheAttemptLimit() async throws {
        let session = ScriptedSession(.status(503), .failure(.networkConnectionLost), .status(200, body: Data("ok".utf8)))
        let call = NetCall(server: server, endpoint: .get("/x"), actions: [RetryAction(baseDelay: 0.001)],
                           callbackQueue: .immediate, firingFunction: session.firingFunction)
        let response = try await withTimeout { try await call.response() }
        #expect(String(decoding: response.data, as: UTF8.self) == "ok")
        #expect(session.requests.count == 3)
    }

    @Test func givesTheLastFailureToTheCallerWhenAttemptsRunOut() async throws {
        let session = ScriptedSession(.status(503))
        let call = NetCall(server: server, endpoint: .get("/x"), actions: [RetryAction(maxAttempts: 2, baseDelay: 0.001)],
                           callbackQueue: .immediate, firingFunction: session.firingFunction)
        let outcome = await result(of: call)
        #expect(session.requests.count == 2)
        guard case .failure(let error) = outcome else { Issue.record("expected failure"); return }
        #expect(error.statusCode == 503)
    }
}

private extension RetryAction {
    /// This policy with `random` answering from `draw`.
    func drawing(_ draw: @escaping @Sendable () -> Double) -> RetryAction {
        var policy = self
        policy.random = draw
        return policy
    }

    /// This policy with `now` answering from `date`.
    func dated(_ date: @escaping @Sendable () -> Date) -> RetryAction {
        var policy = self
        policy.now = date
        return policy
    }
}
