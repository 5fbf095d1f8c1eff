import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

/// Issue 31: each attempt's metrics, measured over a real transport against the loopback server.
@Suite struct AttemptMetricsIntegrationTests {
    private func measuredServer() async throws -> ServerConfig {
        var server = try await ServerConfig.loopback()
        server.collectsMetrics = true
        return server
    }

    @Test(arguments: TransportUnderTest.all)
    func aRedirectedUploadReportsItsBytesRedirectAndTimes(over transport: TransportUnderTest) async throws {
        let body = Data(repeating: 0x61, count: 3_000)
        let endpoint = Endpoint.post("/redirect", query: ["to": "/echo/landed", "code": "307"], body: .data(body, contentType: "text/plain"))
        let call = NetCall(server: try await measuredServer(), endpoint: endpoint, firingFunction: transport.firing)
        let response = try await withTimeout { try await call.response() }
        #expect(try JSONDecoder().decode(Echo.self, from: response.data).path == "/echo/landed")
        #expect(response.metrics.count == 1)
        let metrics = try #require(response.metrics.first)
        #expect(metrics.attempt == 1)
        #expect(metrics.redirectCount == 1)
        // At least the final request's body: a transport that reports upload progress counts
        // the bytes of every hop it sent.
        #expect(metrics.bytesSent >= 3_000)
        #expect(metrics.bytesReceived == Int64(response.data.count))
        let timeToHead = try #require(metrics.timeToHead)
        let duration = try #require(metrics.duration)
        #expect(timeToHead > 0)
        #expect(duration >= timeToHead)
        #expect(abs(metrics.start.timeIntervalSinceNow) < 60)
        #expect(metrics.taskMetrics.count == Self.taskMetricsPerTask(over: transport) * 2)
    }

    /// How many `URLSessionTaskMetrics` an attempt keeps for each task (Salvo sends a redirect
    /// as a task of its own): one where Apple's URLSession collects them, none on Linux or over
    /// another transport.
    private static func taskMetricsPerTask(over transport: TransportUnderTest) -> Int {
        #if canImport(FoundationNetworking)
        0
        #else
        transport.session is URLSession ? 1 : 0
        #endif
    }

    @Test(arguments: TransportUnderTest.all)
    func aCachedCallReportsTheCachesAnswer(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let call = NetCall(server: try await measuredServer(), endpoint: .get("/cache/\(uniqueKey())/resource"),
                           firingFunction: .caching(in: cache, through: transport.session))
        let stored = try await withTimeout { try await call.response() }
        let cached = try await withTimeout { try await call.response() }
        #expect(stored.metrics.map(\.cacheAnswer) == [.miss])
        #expect(cached.metrics.map(\.cacheAnswer) == [.hit])
        #expect(cached.metrics.first?.taskMetrics.isEmpty == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func aRetriedCallReportsEveryAttemptInOrder(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let endpoint = Endpoint.get("/flaky/\(key)", query: ["failures": "1", "status": "503"])
        let call = NetCall(server: try await measuredServer(), endpoint: endpoint, actions: [RetryAction(baseDelay: 0.01)], firingFunction: transport.firing)
        let response = try await withTimeout { try await call.response() }
        #expect(response.metrics.map(\.attempt) == [1, 2])
        #expect(response.metrics.allSatisfy { $0.bytesReceived > 0 && $0.timeToHead != nil })
        let starts = response.metrics.map(\.start)
        #expect(starts == starts.sorted())
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyReadAsItArrivesIsCountedBeforeTheDataHandler(over transport: TransportUnderTest) async throws {
        let seen = Transcript()
        var call = NetCall(server: try await measuredServer(), endpoint: .get("/bytes", query: ["n": "100000"]), callbackQueue: .immediate, firingFunction: transport.firing)
        // Listening to progress makes the session report the body chunk by chunk.
        var responder = NetworkResponder(dataHandler: { seen.append("data \($0.count)") }, errorHandler: { seen.append("error \($0)") })
        responder.progressHandler = { _ in }
        responder.metricsHandler = { metrics in seen.append("received \(metrics.map(\.bytesReceived))") }
        call.responder = responder
        call.fire()
        #expect(await eventually(within: 10) { seen.all.count == 2 })
        #expect(seen.all == ["received [100000]", "data 100000"])
    }
}
