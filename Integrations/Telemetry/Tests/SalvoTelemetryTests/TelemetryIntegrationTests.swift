import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Salvo
import SalvoLogging
import SalvoMetrics
import SalvoTesting
import SalvoTracing
import Testing
import Tracing

/// Issue 31: logging, metrics and tracing together on real requests to Salvo's loopback server.
@Suite struct TelemetryIntegrationTests {
    @Test func aRetriedCallIsLoggedCountedAndTracedOverURLSession() async throws {
        let key = uniqueKey()
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "salvo.integration") { _ in handler }
        logger.logLevel = .debug
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        var server = try await ServerConfig.loopback()
        server.collectsMetrics = true
        server.actions = [RetryAction(baseDelay: 0.01), MetricsAction(factory: metrics), LoggerAction(logger)]
        let call = NetCall(
            server: server, endpoint: .get("/flaky/\(key)", query: ["failures": "1", "status": "503"]),
            firingFunction: .traced(.production, tracer: tracer)
        )
        let response = try await withTimeout { try await call.response() }
        #expect(response.statusCode == 200)
        #expect(response.metrics.map(\.attempt) == [1, 2])

        #expect(handler.entries.map(\.level) == [.debug, .error, .debug, .info])
        #expect(handler.entries.last?.metadata["url.template"] == .string("/flaky/\(key)"))

        let port = try await LoopbackServer.port()
        let dimensions = [("server", "127.0.0.1:\(port)"), ("method", "GET")]
        #expect(metrics.counterTotal(label: "salvo_requests_total", dimensions: dimensions) == 2)
        #expect(metrics.counterTotal(label: "salvo_errors_total", dimensions: dimensions + [("error_type", "503")]) == 1)
        #expect(metrics.counterTotal(label: "salvo_response_body_bytes_total", dimensions: dimensions) == Int64(response.metrics.map(\.bytesReceived).reduce(0, +)))

        let spans = tracer.finishedSpans
        #expect(spans.count == 3)
        let callSpan = try #require(spans.first { $0.parentSpanID == nil })
        #expect(callSpan.attributes["server.port"]?.toSpanAttribute() == .int64(Int64(port)))
        #expect(spans.filter { $0.parentSpanID == callSpan.spanID }.count == 2)
    }

    @Test func theInstrumentsHeadersReachTheServer() async throws {
        let tracer = InMemoryTracer()
        let call = NetCall(server: try await .loopback(), endpoint: .get("/echo"), firingFunction: .traced(.production, tracer: tracer))
        let echo = try await withTimeout { try await call.value(as: Echo.self) }
        let attempt = try #require(tracer.finishedSpans.first { $0.operationName == "GET" })
        let sent = echo.headers.first { $0.first?.lowercased() == InMemoryTracer.spanIDKey }
        #expect(sent?.last == attempt.spanID)
    }
}
