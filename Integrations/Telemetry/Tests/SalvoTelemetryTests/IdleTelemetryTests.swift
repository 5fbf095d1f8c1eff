import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import MetricsTestKit
import Salvo
import SalvoLogging
import SalvoMetrics
import SalvoTesting
import SalvoTracing
import Testing
import Tracing

/// Issue 31's cost targets: telemetry with nothing to record to (no backend bootstrapped, or
/// no-op handlers) leaves the call on Salvo's synchronous path, as if it were not configured.
@Suite struct IdleTelemetryTests {
    /// A mock call with `.immediate` delivery that records its body's delivery, with `actions`
    /// and fired through `firing` wrapped by `wrap`.
    private static func call(
        actions: [any NetworkAction],
        delivered: Transcript,
        wrap: (FiringFunction) -> FiringFunction = { $0 }
    ) -> NetCall {
        NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/users/42"),
            responder: NetworkResponder(dataHandler: { _ in delivered.append("data") }),
            actions: actions, callbackQueue: .immediate, firingFunction: wrap(.mock(.text("ok")))
        )
    }

    @Test func withNoOpHandlersEveryPieceIsIdleAndTheCallIsDeliveredBeforeFireReturns() {
        let delivered = Transcript()
        let logger = Logger(label: "salvo.tests") { _ in SwiftLogNoOpLogHandler() }
        let call = Self.call(
            actions: [MetricsAction(factory: NOOPMetricsHandler.instance), LoggerAction(logger)],
            delivered: delivered, wrap: { .traced($0, tracer: NoOpTracer()) }
        )
        call.fire()
        #expect(delivered.all == ["data"])
    }

    @Test func aMetricsActionWithABackendIsActive() {
        let call = Self.call(actions: [], delivered: Transcript())
        #expect(MetricsAction(factory: TestMetrics()).isActive(for: call))
        #expect(!MetricsAction(factory: NOOPMetricsHandler.instance).isActive(for: call))
    }

    @Test func aLoggerActionIsActiveWhileItsLoggerLetsErrorsThrough() {
        let call = Self.call(actions: [], delivered: Transcript())
        #expect(!LoggerAction(Logger(label: "salvo.tests") { _ in SwiftLogNoOpLogHandler() }).isActive(for: call))
        var logger = Logger(label: "salvo.tests") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = .error
        #expect(LoggerAction(logger).isActive(for: call))
        logger.logLevel = .critical
        #expect(!LoggerAction(logger).isActive(for: call))
    }
}
