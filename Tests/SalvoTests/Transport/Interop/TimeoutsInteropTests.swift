import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Slow responses: `/delay/n` (silent for n seconds, then the echo) and `/drip` (a body one byte
/// at a time), against endpoint timeouts, `RetryAction` and cancellation.
///
/// An endpoint timeout limits silence between bytes, not the whole transfer, and on Linux it is
/// a whole number of seconds (Salvo rounds up): bounds here leave a second or more of slack.
@Suite(.requiresHTTPBin) struct TimeoutsInteropTests {
    /// Counts the attempts of the calls it is on, from the outside, as any action sees them.
    actor AttemptCounter: NetworkAction {
        private(set) var attempts = 0

        func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
            attempts += 1
            return .proceed
        }
    }

    /// The most a 1 s timeout may take. Alone it takes ~1.0 s; in CI's full parallel run every
    /// timeout of one moment was seen at 3.22 s and 3.35 s (the process's URLSession deliveries
    /// stalled about 2 s: the drip test's bytes arrived together at the same moment). A
    /// `.timedOut` error already proves the timeout fired before the server answered; the bound
    /// proves it did not wait for the 10 s answer or hang.
    static let promptly: TimeInterval = 5

    /// Runs `work`, returning its `NetworkError` and how long it took.
    private func timed<T: Sendable>(within seconds: Double = 15, _ work: @escaping @Sendable () async throws -> T) async -> (NetworkError?, TimeInterval) {
        let started = Date()
        let failure = await networkError(within: seconds, work)
        return (failure, Date().timeIntervalSince(started))
    }

    @Test(arguments: TransportUnderTest.all, [3, 10])
    func aSilentServerFailsWithATimeoutPromptly(over transport: TransportUnderTest, delay: Int) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(Endpoint.get("/delay/\(delay)").timeout(1))
        let (failure, elapsed) = await timed { try await call.response() }
        guard case .transport(let error)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(error.code == .timedOut)
        #expect(elapsed >= 0.9)
        #expect(elapsed < Self.promptly, "a 1 s timeout took \(elapsed) s")
    }

    @Test(arguments: TransportUnderTest.all)
    func aResponseWithinTheTimeoutArrives(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(Endpoint.post("/delay/1", query: ["q": "1"], body: .text("late")).timeout(5))
        let started = Date()
        let echo = try await withTimeout { try await call.value(as: HTTPBinEcho.self) }
        #expect(Date().timeIntervalSince(started) >= 0.9)
        #expect(echo.args == ["q": "1"])
        #expect(echo.data == "late")
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyThatKeepsDrippingOutlastsTheTimeout(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        // Ten bytes over 3 s, one every 0.3 s: never 2 s of silence, 3 s in all. (With a 1 s
        // timeout, a loaded machine once kept httpbin's first byte back for longer than that.)
        let call = httpbin.call(Endpoint.get("/drip", query: ["numbytes": "10", "duration": "3", "delay": "0"]).timeout(2))
        let started = Date()
        let response = try await withTimeout { try await call.response() }
        #expect(Date().timeIntervalSince(started) >= 2.5)
        #expect(response.data == Data(repeating: UInt8(ascii: "*"), count: 10))
        #expect(response.head?.headers["Content-Type"] == "application/octet-stream")
    }

    @Test(arguments: TransportUnderTest.all, [
        ["numbytes": "2", "duration": "6", "delay": "0"],   // a 3 s pause between the two bytes
        ["numbytes": "2", "duration": "0.5", "delay": "3"], // 3 s before the headers
    ])
    func aDripThatFallsSilentFailsWithATimeout(over transport: TransportUnderTest, query: [String: String]) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(Endpoint(path: "/drip", query: query.map { URLQueryItem(name: $0.key, value: $0.value) }, timeout: 1))
        let (failure, elapsed) = await timed { try await call.response() }
        guard case .transport(let error)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(error.code == .timedOut)
        #expect(elapsed < Self.promptly, "a 1 s timeout took \(elapsed) s")
    }

    @Test(arguments: TransportUnderTest.all)
    func aDrippedErrorStatusCarriesItsBody(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/drip", query: ["numbytes": "4", "duration": "0.4", "code": "503"]))
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == 503)
        #expect(failure?.responseBody == Data("****".utf8))
    }

    @Test(arguments: TransportUnderTest.all)
    func aTimedOutGETIsRetriedThenFails(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let counter = AttemptCounter()
        let retry = RetryAction(maxAttempts: 2, baseDelay: 0.1, jitter: 0)
        // httpbin's longest delay, 10 s: two attempts that ignored the 1 s timeout take 20 s,
        // two that kept it about 2 s, so the bound sits far from both.
        let call = httpbin.call(Endpoint.get("/delay/10").timeout(1), actions: [retry, counter])
        let (failure, elapsed) = await timed(within: 40) { try await call.response() }
        guard case .transport(let error)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(error.code == .timedOut)
        #expect(await counter.attempts == 2)
        #expect(elapsed < 10, "each attempt kept its 1 s timeout")
    }

    @Test(arguments: TransportUnderTest.all)
    func aTimedOutPOSTIsNotRetried(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let counter = AttemptCounter()
        let call = httpbin.call(Endpoint.post("/delay/3", body: .text("once")).timeout(1), actions: [RetryAction(baseDelay: 0.1), counter])
        let failure = await networkError(within: 15) { try await call.response() }
        guard case .transport? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(await counter.attempts == 1)
    }

    @Test(arguments: TransportUnderTest.all, [503, 429])
    func aRetryableStatusIsRetriedUpToTheLimit(over transport: TransportUnderTest, status: Int) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let counter = AttemptCounter()
        let retry = RetryAction(maxAttempts: 3, baseDelay: 0.05, jitter: 0)
        let call = httpbin.call(.get("/status/\(status)"), actions: [retry, counter])
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == status)
        #expect(await counter.attempts == 3)
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingASlowCallEndsItAtOnce(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/delay/10"))
        let task = Task { try await call.response() }
        try await Task.sleep(nanoseconds: 300_000_000)
        let started = Date()
        task.cancel()
        let failure = await networkError { try await task.value }
        #expect(failure?.isCancelled == true)
        // Well before the 10 s the server would take; a full parallel run on two cores once took 2.6 s.
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
