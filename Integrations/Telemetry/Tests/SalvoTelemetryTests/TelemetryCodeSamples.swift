import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryTracing
import Logging
import Salvo
import SalvoLogging
import SalvoMetrics
import SalvoTesting
import SalvoTracing
import Testing
import Tracing

// The code in Docs/Telemetry.md's telemetry-package sections, kept here so it cannot rot.
enum TelemetryGuide {
    static func loggingServer() -> ServerConfig {
        var api = ServerConfig(host: "api.example.com")
        api.actions.append(LoggerAction(Logger(label: "app.network"), lines: LoggingAction(includesHeaders: true)))
        return api
    }

    static func metricsServer() -> ServerConfig {
        var api = ServerConfig(host: "api.example.com")
        api.collectsMetrics = true                 // for the byte counters and time to head
        api.actions.append(MetricsAction())
        return api
    }

    static func tracedCall(api: ServerConfig) -> NetCall {
        var call = NetCall(server: api, endpoint: .get("/users/42"))
        call.firingFunction = .traced(.production)
        return call
    }
}

@Suite struct TelemetryCodeSamplesTests {
    @Test func theGuidesServersCarryTheirActions() {
        #expect(TelemetryGuide.loggingServer().actions.first is LoggerAction)
        #expect(TelemetryGuide.metricsServer().actions.first is MetricsAction)
        #expect(TelemetryGuide.metricsServer().collectsMetrics)
    }

    @Test func theGuidesTracedCallFiresThroughItsBase() async throws {
        var call = TelemetryGuide.tracedCall(api: ServerConfig(host: "api.example.com"))
        // The guide fires through production; the test swaps the base for a mock.
        let tracer = InMemoryTracer()
        call.firingFunction = .traced(.mock(.text("ok")), tracer: tracer)
        call.callbackQueue = .immediate
        _ = try await call.response()
        #expect(tracer.finishedSpans.map(\.operationName).sorted() == ["GET", "GET /users/{id}"])
    }
}
