import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTelemetrySupport
import Tracing

extension FiringFunction {
    /// Fires through `base` with one client span per call and one per attempt, following
    /// OpenTelemetry's HTTP client conventions, and the attempt's context injected into its request
    /// headers by the tracer's instrument (W3C `traceparent` and `tracestate` with an OpenTelemetry tracer).
    ///
    /// ```swift
    /// InstrumentationSystem.bootstrap(otelTracer)         // once, at launch
    /// var call = NetCall(server: api, endpoint: .get("/users/42"))
    /// call.firingFunction = .traced(.production)
    /// ```
    ///
    /// The call span, `GET /users/{id}`, starts in the current `InstrumentationContext` when the
    /// call is fired and ends when its responder receives the outcome (cancellation included). Each
    /// attempt is a child span named for the method, with `http.request.resend_count` from the first
    /// retry on: retries show as their own spans, and so does a token renewal whose call is fired
    /// through a traced firing function, as a child of the call span. Both carry
    /// `http.request.method`, `server.address`, `server.port` and `url.template`; an attempt also
    /// `url.full` (redacted) and `http.response.status_code`; a failed one `error.type` and an
    /// error status, which the call span takes from its outcome.
    ///
    /// The attempts' spans come from an action the traced call runs last (closest to the wire),
    /// so they see each request as sent. While no instrument is bootstrapped, the call fires through
    /// `base` unchanged, and so it does when the tracer is a `NoOpTracer`. Attributes are set only
    /// on spans that record.
    ///
    /// - Parameters:
    ///   - base: how the call is really fired: production, a session, mock or replay firing.
    ///   - tracer: the tracer; `nil` for the one bootstrapped in `InstrumentationSystem`.
    ///   - redaction: what `url.full` hides; ``Redaction/default`` unless you pass another.
    ///   - endpointName: the `url.template` of a call; `nil` for its path with identifiers as `{id}`.
    /// - Returns: a firing function to put in ``NetCall/firingFunction``.
    public static func traced(
        _ base: FiringFunction,
        tracer: (any Tracer)? = nil,
        redaction: Redaction = .default,
        endpointName: (@Sendable (NetCall) -> String)? = nil
    ) -> FiringFunction {
        FiringFunction { call, channel in
            // Nothing bootstrapped, or a tracer that records and injects nothing: fire as if
            // untraced, without the action its spans would need (it moves the call off the
            // synchronous path). Casts to concrete types first: `tracer` is a cast to an existential.
            if tracer == nil {
                let instrument = InstrumentationSystem.instrument
                if instrument is NoOpInstrument || instrument is NoOpTracer { return base(call, channel) }
            }
            let tracer = tracer ?? InstrumentationSystem.tracer
            if tracer is NoOpTracer { return base(call, channel) }
            let template = endpointName?(call) ?? CallNames.endpointTemplate(of: call)
            let span = tracer.startSpan(
                "\(call.endpoint.method.rawValue) \(template)",
                context: InstrumentationContext.current ?? .topLevel,
                ofKind: .client
            )
            CallSpans.describe(span, call: call, template: template)
            let tracing = AttemptTracing(callSpan: span, tracer: tracer, redaction: redaction, template: template)
            var traced = call
            traced.actions.append(tracing)
            // The span ends before the outcome is handed on: the call's handlers, or the caller
            // awaiting it, may be what awaits the span.
            let ending = channel.onFinish { tracing.endCall(with: $0) }
            // The attempt loop starts in this context, so calls its actions fire (a token
            // renewal) are children of the call span.
            return InstrumentationContext.withValue(span.context) { base(traced, ending) }
        }
    }
}

/// The attributes every span of a call carries.
enum CallSpans {
    static func describe(_ span: any Span, call: NetCall, template: String) {
        guard span.isRecording else { return }
        span.attributes["http.request.method"] = call.endpoint.method.rawValue
        span.attributes["server.address"] = call.server.host
        span.attributes["server.port"] = call.server.port ?? (call.server.scheme == "http" ? 80 : 443)
        span.attributes["url.template"] = template
    }
}

/// The spans of one firing's attempts, and the end of its call span: one instance per firing.
final class AttemptTracing: NetworkAction, @unchecked Sendable {
    // Safe: `attemptSpan`, `attempts` and `hasEnded` are read and written only while `lock` is held.
    // (Salvo's `Locked` is package-visible to Salvo's own targets, not to this package.)
    private let lock = NSLock()
    private var attemptSpan: (any Span)?
    private var attempts = 0
    private var hasEnded = false
    private let callSpan: any Span
    private let tracer: any Tracer
    private let redaction: Redaction
    private let template: String

    init(callSpan: any Span, tracer: any Tracer, redaction: Redaction, template: String) {
        self.callSpan = callSpan
        self.tracer = tracer
        self.redaction = redaction
        self.template = template
    }

    /// Starts the attempt's span and injects its context into the request.
    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        let span = tracer.startSpan(request.httpMethod ?? call.endpoint.method.rawValue, context: callSpan.context, ofKind: .client)
        CallSpans.describe(span, call: call, template: template)
        if span.isRecording, let url = request.url { span.attributes["url.full"] = redaction.redact(url).absoluteString }
        let number = lock.withLock {
            attempts += 1
            attemptSpan = span
            return attempts
        }
        if number > 1 { span.attributes["http.request.resend_count"] = number - 1 }
        var injected = request
        tracer.inject(span.context, into: &injected, using: HeaderInjector())
        return injected
    }

    /// Ends the attempt's span with its status; never changes the outcome.
    func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        guard let span = lock.withLock({ () -> (any Span)? in
            defer { attemptSpan = nil }
            return attemptSpan
        }) else { return .proceed }
        if let status = outcome.head?.statusCode {
            span.attributes["http.response.status_code"] = status
            callSpan.attributes["http.response.status_code"] = status
        }
        if let errorType = CallNames.errorType(of: outcome) {
            span.attributes["error.type"] = errorType
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
        return .proceed
    }

    /// Ends the call span, once, and an attempt's span a cancellation left open: `error` is what
    /// the responder received, `nil` on success.
    func endCall(with error: NetworkError?) {
        let (isFirst, openAttempt) = lock.withLock {
            defer {
                hasEnded = true
                attemptSpan = nil
            }
            return (!hasEnded, attemptSpan)
        }
        guard isFirst else { return }
        if let openAttempt {
            openAttempt.attributes["error.type"] = error.map(CallNames.errorType) ?? "cancelled"
            openAttempt.setStatus(SpanStatus(code: .error))
            openAttempt.end()
        }
        if let error {
            callSpan.attributes["error.type"] = CallNames.errorType(of: error)
            callSpan.setStatus(SpanStatus(code: .error, message: error.isCancelled ? "cancelled" : nil))
        }
        callSpan.end()
    }
}

/// Writes what the instrument injects (`traceparent`, `tracestate`, …) as request header fields.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}
