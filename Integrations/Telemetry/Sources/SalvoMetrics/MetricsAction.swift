import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTelemetrySupport

/// Counts and times every attempt of every call through swift-metrics, with dimensions few
/// enough for any backend: the server, the endpoint template, the method and the status class —
/// never a full URL, a query or an identifier.
///
/// ```swift
/// var api = ServerConfig(host: "api.example.com")
/// api.collectsMetrics = true                 // byte counts and time to the head
/// api.actions.append(MetricsAction())       // last: innermost, sees every attempt, retried ones too
/// ```
///
/// Per attempt it records, with dimensions `server` (`host:port`), `endpoint` (the endpoint's path
/// with identifiers as `{id}`), `method` and `status_class` (`2xx` … `5xx`, `none`):
/// - counter `<prefix>_requests_total`;
/// - timer `<prefix>_request_duration`: from sending to the end of the attempt;
/// - timer `<prefix>_time_to_head` and counters `<prefix>_request_body_bytes_total`,
///   `<prefix>_response_body_bytes_total` (without `status_class`), when the server collects metrics;
/// - counter `<prefix>_errors_total` for an attempt that failed, with `error_type` (a status code,
///   `timeout`, `transport`, `cancelled`, …) in place of `status_class`.
public struct MetricsAction: NetworkAction {
    /// The start of every metric's label; `salvo` by default.
    public var prefix: String
    /// The `endpoint` dimension of a call; by default its path with identifiers as `{id}`.
    public var endpointName: @Sendable (NetCall) -> String
    /// The factory metrics are made by; `nil` for the one bootstrapped in `MetricsSystem`.
    public var factory: (any MetricsFactory)?

    /// An action recording to `factory`, or to the bootstrapped one.
    ///
    /// - Parameters:
    ///   - prefix: the start of every label.
    ///   - endpointName: the `endpoint` dimension of a call; `nil` for the path with identifiers as `{id}`.
    ///     Return a template, never something with an identifier in it.
    ///   - factory: where metrics go; `nil` for `MetricsSystem.factory`.
    public init(
        prefix: String = "salvo",
        endpointName: (@Sendable (NetCall) -> String)? = nil,
        factory: (any MetricsFactory)? = nil
    ) {
        self.prefix = prefix
        self.endpointName = endpointName ?? { CallNames.endpointTemplate(of: $0) }
        self.factory = factory
    }

    /// Whether there is a backend to record to: `false` while the factory is swift-metrics' no-op
    /// one (nothing bootstrapped), so the call fires as if the action were not there.
    public func isActive(for call: NetCall) -> Bool {
        !((factory ?? MetricsSystem.factory) is NOOPMetricsHandler)
    }

    /// Records the attempt; never changes the outcome.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        let factory = factory ?? MetricsSystem.factory
        // Bootstrapped after the call was fired: no dimension is worth working out.
        if factory is NOOPMetricsHandler { return .proceed }
        let call: [(String, String)] = [
            ("server", CallNames.server(of: call)),
            ("endpoint", endpointName(call)),
            ("method", outcome.request?.httpMethod ?? call.endpoint.method.rawValue),
        ]
        let withStatus = call + [("status_class", CallNames.statusClass(of: outcome))]
        Counter(label: "\(prefix)_requests_total", dimensions: withStatus, factory: factory).increment()
        if let duration = outcome.duration {
            Timer(label: "\(prefix)_request_duration", dimensions: withStatus, factory: factory).recordNanoseconds(Self.nanoseconds(duration))
        }
        if let errorType = CallNames.errorType(of: outcome) {
            Counter(label: "\(prefix)_errors_total", dimensions: call + [("error_type", errorType)], factory: factory).increment()
        }
        if let measured = outcome.metrics.last {
            if let head = measured.timeToHead {
                Timer(label: "\(prefix)_time_to_head", dimensions: call, factory: factory).recordNanoseconds(Self.nanoseconds(head))
            }
            Counter(label: "\(prefix)_request_body_bytes_total", dimensions: call, factory: factory).increment(by: Int(measured.bytesSent))
            Counter(label: "\(prefix)_response_body_bytes_total", dimensions: call, factory: factory).increment(by: Int(measured.bytesReceived))
        }
        return .proceed
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> Int64 {
        Int64((seconds * 1_000_000_000).rounded())
    }
}
