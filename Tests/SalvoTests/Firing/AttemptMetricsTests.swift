import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Issue 31: what each attempt measured, on responses, for actions and in the logging action's lines.
@Suite struct AttemptMetricsTests {
    private static var measured: ServerConfig {
        var server = ServerConfig(host: "api.test")
        server.collectsMetrics = true
        return server
    }

    /// Records the attempt numbers of the metrics each decision saw.
    private struct MetricsSpy: NetworkAction {
        let seen: Transcript

        func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
            seen.append(outcome.metrics.map { "\($0.attempt)" }.joined(separator: ","))
            return .proceed
        }
    }

    @Test func nothingIsMeasuredUnlessTheServerCollectsMetrics() async throws {
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/x"), callbackQueue: .immediate, firingFunction: .mock(.text("hi")))
        let response = try await call.response()
        #expect(response.metrics.isEmpty)
    }

    @Test func theOnlyAttemptReportsItsBytesAndTimesOnTheFiringClock() async throws {
        let time = TestClock()
        let call = NetCall(
            server: Self.measured,
            endpoint: .post("/notes", body: .text("hello")),
            callbackQueue: .immediate,
            firingFunction: .mock(.text("created", status: 201).delayed(by: 0.25), clock: time.clock)
        )
        let response = Task { try await call.response() }
        // Required: without the sleeper, nothing would ever advance the clock and the await below
        // would hang the whole test run (seen with the cooperative pool starved under load 18).
        try #require(await time.waitForSleepers(1, timeout: 30))
        time.advance(by: 0.25)
        let metrics = try #require(try await response.value.metrics.first)
        #expect(try await response.value.metrics.count == 1)
        #expect(metrics.attempt == 1)
        #expect(metrics.bytesSent == 5)
        #expect(metrics.bytesReceived == 7)
        #expect(metrics.timeToHead == 0.25)
        #expect(metrics.duration == 0.25)
        #expect(metrics.redirectCount == 0)
        #expect(metrics.cacheAnswer == nil)
        #expect(metrics.timeToHead.map(metrics.start.addingTimeInterval) == metrics.start.addingTimeInterval(0.25))
    }

    @Test func redirectsTheSessionFollowedAreCounted() async throws {
        let routes = MockRoutes([
            .get("/a", .redirect(to: "/b")),
            .get("/b", .redirect(to: "/c", status: 301)),
            .get("/c", .text("landed")),
        ])
        let call = NetCall(server: Self.measured, endpoint: .get("/a"), callbackQueue: .immediate, firingFunction: .mock(routes))
        let response = try await call.response()
        #expect(response.metrics.map(\.redirectCount) == [2])
        #expect(response.metrics.first?.bytesReceived == 6)
    }

    @Test func everyAttemptIsMeasuredAndActionsSeeTheAttemptsSoFar() async throws {
        let seen = Transcript()
        let flaky = MockResponse.sequence([.status(503)], then: .text("ok"))
        let call = NetCall(
            server: Self.measured,
            endpoint: .get("/flaky"),
            actions: [RetryAction(baseDelay: 0), MetricsSpy(seen: seen)],
            callbackQueue: .immediate,
            firingFunction: .mock(flaky, clock: .immediate)
        )
        let response = try await call.response()
        #expect(response.metrics.map(\.attempt) == [1, 2])
        #expect(seen.all == ["1", "1,2"])
    }

    @Test func theCacheAnswerSummarisesWhereEachResponseCameFrom() async throws {
        let time = TestClock()
        let cache = HTTPCache(clock: time.clock)
        let origin = CacheOrigin()
        func answer(_ policy: CachePolicy = .protocolRules) async throws -> (AttemptMetrics.CacheAnswer?, CacheStatus.Source?) {
            let call = NetCall(server: Self.measured, endpoint: .get("/item"), callbackQueue: .immediate,
                               firingFunction: .caching(in: cache, policy: policy, through: origin.session))
            let response = try await call.response()
            return (try #require(response.metrics.first).cacheAnswer, response.cacheStatus?.source)
        }
        #expect(try await answer() == (.miss, .network))
        #expect(try await answer() == (.hit, .cache))
        time.advance(by: 61)
        #expect(try await answer() == (.revalidated, .revalidated))
        time.advance(by: 61)
        origin.state.withLock { $0.failure = .failure(.notConnectedToInternet) }
        #expect(try await answer(.offlineFirst) == (.hit, .staleAfterError))
    }

    #if canImport(FoundationNetworking)
    // `URLSessionTaskMetrics()` is public in swift-corelibs-foundation and deprecated ("not
    // supported") on Apple platforms, where the integration suite sees URLSession's own.

    /// Reports `taskMetrics`, then a 200 with "ok", to every request.
    private struct TaskMetricsSession: NetworkSession {
        struct Finished: NetworkSessionTask {
            func cancel() {}
        }

        let taskMetrics: [URLSessionTaskMetrics]

        func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
            for metrics in taskMetrics { receiver.didCollect(metrics) }
            if let url = request.url { receiver.receive(ResponseHead(statusCode: 200, headers: [:], url: url)) }
            receiver.receive(Data("ok".utf8))
            receiver.finish(nil)
            return Finished()
        }
    }

    @Test func theTaskMetricsASessionReportsAreKeptInOrder() async throws {
        let first = URLSessionTaskMetrics()
        let redirected = URLSessionTaskMetrics()
        let session = TaskMetricsSession(taskMetrics: [first, redirected])
        let call = NetCall(server: Self.measured, endpoint: .get("/a"), callbackQueue: .immediate, firingFunction: .session(session))
        let metrics = try #require(try await call.response().metrics.first)
        #expect(metrics.taskMetrics.map(ObjectIdentifier.init) == [ObjectIdentifier(first), ObjectIdentifier(redirected)])
        #expect(metrics.bytesReceived == 2)
    }

    @Test func noTaskMetricsAreKeptUnlessTheServerCollectsMetrics() async throws {
        let session = TaskMetricsSession(taskMetrics: [URLSessionTaskMetrics()])
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/a"), callbackQueue: .immediate, firingFunction: .session(session))
        let response = try await call.response()
        #expect(response.data == Data("ok".utf8))
        #expect(response.metrics.isEmpty)
    }
    #endif

    private struct Greeting: Decodable, Sendable { let text: String }
    private struct Problem: Decodable, Sendable { let message: String }

    @Test func aTypedResponseCarriesTheMetrics() async throws {
        let call = TypedCall<Greeting, Problem>(NetCall(
            server: Self.measured, endpoint: .get("/greeting"), callbackQueue: .immediate,
            firingFunction: .mock(.text(#"{"text":"hi"}"#, headers: ["Content-Type": "application/json"]))
        ))
        let response = try await call.response()
        #expect(response.value.text == "hi")
        #expect(response.metrics.map(\.bytesReceived) == [13])
    }

    @Test func theMetricsHandlerRunsBeforeTheOutcomeHandlersAlsoOnFailure() async throws {
        let order = Transcript()
        var call = NetCall(server: Self.measured, endpoint: .get("/missing"), callbackQueue: .immediate, firingFunction: .mock(.status(404)))
        var responder = NetworkResponder(serverErrorHandler: { _ in order.append("serverError") })
        responder.metricsHandler = { metrics in order.append("metrics \(metrics.count)") }
        call.responder = responder
        call.fire()
        #expect(order.all == ["metrics 1", "serverError"])
    }

    @Test func theLoggingActionAddsTheMetricsToItsResponseLine() async throws {
        let lines = Transcript()
        let routes = MockRoutes([.post("/a", .redirect(to: "/b", status: 307)), .post("/b", .text("done"))])
        let call = NetCall(
            server: Self.measured,
            endpoint: .post("/a", body: .text("hello")),
            actions: [LoggingAction(sink: lines.append)],
            callbackQueue: .immediate,
            firingFunction: .mock(routes, clock: TestClock().clock)
        )
        _ = try await call.response()
        let line = try #require(lines.all.last)
        #expect(line.hasPrefix("← 200 POST https://api.test/a ("))
        #expect(line.hasSuffix(" ms, 4 B, head 0 ms, sent 5 B, 1 redirect)"))
    }

    @Test func theLoggingLineIsUnchangedWithoutMetrics() async throws {
        let lines = Transcript()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/a"), actions: [LoggingAction(sink: lines.append)],
            callbackQueue: .immediate, firingFunction: .mock(.text("done"))
        )
        _ = try await call.response()
        #expect(try #require(lines.all.last).hasSuffix(" ms, 4 B)"))
    }
}
