import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Salvo
import SalvoTelemetrySupport

/// Logs each request and each attempt's response to a swift-log `Logger`, with the lines of
/// ``LoggingAction`` (the same redaction) and structured metadata a log backend can index.
///
/// ```swift
/// var api = ServerConfig(host: "api.example.com")
/// api.actions.append(LoggerAction(Logger(label: "app.network")))
/// ```
///
/// Requests are logged at `debug`; responses at `info` (2xx and 3xx), `notice` (4xx) or `error`
/// (5xx and failures), a cancelled call at `debug`. Each entry carries this metadata:
/// `http.request.method`, `url.full` (redacted), `server.address`, `url.template` (the endpoint
/// with identifiers as `{id}`), and on responses `http.response.status_code`, `salvo.attempt`,
/// `salvo.duration_ms` and `error.type`; with ``ServerConfig/collectsMetrics`` also
/// `salvo.time_to_head_ms`, `salvo.bytes_sent`, `salvo.bytes_received` and `salvo.redirects`.
///
/// Put it last (innermost), like ``LoggingAction``: it then sees each request as sent and every
/// attempt's response.
public struct LoggerAction: NetworkAction {
    /// Where entries go; its own metadata and level apply as usual.
    public var logger: Logger
    /// The message lines and their redaction: its sink is replaced, the rest applies.
    public var lines: LoggingAction

    /// An action logging to `logger`.
    ///
    /// - Parameters:
    ///   - logger: where entries go.
    ///   - lines: how messages are written and what they hide (headers, bodies, ``Redaction``);
    ///     its sink is not used.
    public init(_ logger: Logger, lines: LoggingAction = LoggingAction()) {
        self.logger = logger
        self.lines = lines
    }

    /// Whether the logger's level lets any entry through (`error` or lower): at `critical`, or with
    /// swift-log's no-op handler, the call fires as if the action were not there.
    public func isActive(for call: NetCall) -> Bool {
        logger.logLevel <= .error
    }

    /// Logs the request at `debug`.
    public func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        guard logger.logLevel <= .debug else { return request }
        var metadata = Self.metadata(of: call, request: request, redaction: lines.redaction)
        metadata["salvo.event"] = "request"
        return try await writing(at: .debug, metadata).prepare(request, for: call)
    }

    /// Logs the response (or failure) at a level that follows its status; never changes the outcome.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        let level = Self.level(of: outcome)
        guard logger.logLevel <= level else { return .proceed }
        var metadata = Self.metadata(of: call, request: outcome.request, redaction: lines.redaction)
        metadata["salvo.event"] = "response"
        metadata["salvo.attempt"] = "\(attempt)"
        if let status = outcome.head?.statusCode { metadata["http.response.status_code"] = "\(status)" }
        if let errorType = CallNames.errorType(of: outcome) { metadata["error.type"] = .string(errorType) }
        if let duration = outcome.duration { metadata["salvo.duration_ms"] = "\(Self.milliseconds(duration))" }
        if let measured = outcome.metrics.last {
            if let head = measured.timeToHead { metadata["salvo.time_to_head_ms"] = "\(Self.milliseconds(head))" }
            metadata["salvo.bytes_sent"] = "\(measured.bytesSent)"
            metadata["salvo.bytes_received"] = "\(measured.bytesReceived)"
            metadata["salvo.redirects"] = "\(measured.redirectCount)"
        }
        return await writing(at: level, metadata).decide(after: outcome, for: call, attempt: attempt)
    }

    /// ``lines`` with a sink that writes to ``logger`` at `level` with `metadata`.
    private func writing(at level: Logger.Level, _ metadata: Logger.Metadata) -> LoggingAction {
        var action = lines
        let logger = logger
        action.sink = { message in logger.log(level: level, "\(message)", metadata: metadata) }
        return action
    }

    /// The level of a response entry.
    static func level(of outcome: AttemptOutcome) -> Logger.Level {
        if outcome.error?.isCancelled == true { return .debug }
        if outcome.isStreamedHead, outcome.error == nil { return .info }
        switch outcome.result {
        case .success: return .info
        case .failure(let error):
            if let status = error.statusCode, (400..<500).contains(status) { return .notice }
            return .error
        }
    }

    /// What every entry of a call carries.
    static func metadata(of call: NetCall, request: URLRequest?, redaction: Redaction) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "http.request.method": .string(request?.httpMethod ?? call.endpoint.method.rawValue),
            "server.address": .string(CallNames.server(of: call)),
            "url.template": .string(CallNames.endpointTemplate(of: call)),
        ]
        if let url = request?.url { metadata["url.full"] = .string(redaction.redact(url).absoluteString) }
        return metadata
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int((seconds * 1_000).rounded())
    }
}
