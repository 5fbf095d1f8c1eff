import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetricsTestKit
import Salvo
import SalvoMetrics
import SalvoTesting
import Testing

/// Issue 31: request counts, durations, bytes and errors through swift-metrics, with
/// low-cardinality dimensions.
@Suite struct MetricsActionTests {
    @Test func everyAttemptIsCountedByServerEndpointTemplateAndStatusClass() async throws {
        let metrics = TestMetrics()
        var server = ServerConfig(host: "api.test", port: 8443)
        server.collectsMetrics = true
        let call = NetCall(
            server: server, endpoint: .post("/users/42/notes", body: .text("hello")),
            actions: [RetryAction(baseDelay: 0, retryableMethods: [.post]), MetricsAction(factory: metrics)],
            callbackQueue: .immediate,
            firingFunction: .mock(.sequence([.status(503)], then: .text("saved", status: 201)), clock: .immediate)
        )
        _ = try await call.response()
        let base = [("server", "api.test:8443"), ("endpoint", "/users/{id}/notes"), ("method", "POST")]
        #expect(metrics.counterTotal(label: "salvo_requests_total", dimensions: base + [("status_class", "5xx")]) == 1)
        #expect(metrics.counterTotal(label: "salvo_requests_total", dimensions: base + [("status_class", "2xx")]) == 1)
        #expect(metrics.counterTotal(label: "salvo_errors_total", dimensions: base + [("error_type", "503")]) == 1)
        #expect(metrics.counterTotal(label: "salvo_request_body_bytes_total", dimensions: base) == 10)
        #expect(metrics.counterTotal(label: "salvo_response_body_bytes_total", dimensions: base) == 5)
        #expect(try metrics.expectTimer("salvo_request_duration", base + [("status_class", "2xx")]).values.count == 1)
        #expect(try metrics.expectTimer("salvo_time_to_head", base).values.count == 2)
        let dimensionValues = metrics.counters.flatMap(\.dimensions).map(\.1)
        #expect(!dimensionValues.contains { $0.contains("42") })
    }

    @Test func bytesAndTimeToHeadNeedTheServerToCollectMetrics() async throws {
        let metrics = TestMetrics()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/x"), actions: [MetricsAction(prefix: "api", factory: metrics)],
            callbackQueue: .immediate, firingFunction: .mock(.text("ok"))
        )
        _ = try await call.response()
        #expect(metrics.counterTotal(label: "api_requests_total") == 1)
        #expect(metrics.counters(label: "api_response_body_bytes_total").isEmpty)
        #expect(metrics.timers(label: "api_time_to_head").isEmpty)
    }

    @Test func aCustomEndpointNameReplacesTheTemplate() async throws {
        let metrics = TestMetrics()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/search"),
            actions: [MetricsAction(endpointName: { _ in "search" }, factory: metrics)],
            callbackQueue: .immediate, firingFunction: .mock(.failure(.timedOut))
        )
        _ = try? await call.response()
        #expect(metrics.counterTotal(label: "salvo_errors_total", dimensions: [("endpoint", "search"), ("error_type", "timeout")]) == 1)
        #expect(metrics.counterTotal(label: "salvo_requests_total", dimensions: [("status_class", "none")]) == 1)
    }
}
