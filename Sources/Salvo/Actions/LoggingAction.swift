import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes one readable line per request and per response to a sink, secrets redacted.
///
/// ```text
/// → GET http://127.0.0.1:8080/users?page=2
/// ← 200 GET http://127.0.0.1:8080/users?page=2 (12 ms, 1532 B)
/// ```
///
/// When the server collects metrics (``ServerConfig/collectsMetrics``) a response line also says
/// when the head arrived, the bytes sent, redirects followed, the attempt's number after the
/// first, and the cache's answer: `(12 ms, 1532 B, head 9 ms, sent 120 B, 1 redirect, attempt 2)`.
///
/// With ``includesHeaders`` and ``includesBodies`` the same message carries indented header
/// lines and the body (JSON pretty-printed), cut at ``bodyLimit`` characters. ``redaction``
/// (``Redaction/default`` unless you pass another) hides credential headers (a redaction that
/// hides `Authorization` also hides the header of each ``AuthTokenAction`` of the call), and its keys in
/// URLs, form bodies and JSON fields at any depth, in requests and responses alike. Any value
/// the request sent in a hidden header, query item or body field is also removed wherever else
/// it appears, e.g. in a response that echoes it as text (values shorter than 4 characters are
/// left alone). Nothing is parsed when the action is not in the chain.
///
/// Put it last (innermost): it then logs each request as sent and every attempt's response,
/// including the ones that outer actions retry.
///
/// ```swift
/// api.actions = [RetryAction(), auth, LoggingAction(includesHeaders: true) { logger.debug("\($0)") }]
/// ```
public struct LoggingAction: NetworkAction {
    /// Whether header fields are logged (redacted), one indented line each.
    public var includesHeaders: Bool
    /// Whether bodies are logged, JSON pretty-printed, cut at ``bodyLimit``.
    public var includesBodies: Bool
    /// The most characters of a body that are logged.
    public var bodyLimit: Int
    /// Which header fields and query keys are hidden.
    public var redaction: Redaction
    /// Receives each message; one call per request and one per response.
    public var sink: @Sendable (String) -> Void

    /// A logging action; by default one line per event to standard error.
    ///
    /// - Parameters:
    ///   - includesHeaders: log header fields.
    ///   - includesBodies: log bodies.
    ///   - bodyLimit: the most characters of a body to log.
    ///   - redaction: what to hide; add your own secret headers and keys with `adding`.
    ///   - sink: where messages go, e.g. an `os.Logger` or a test's array.
    public init(
        includesHeaders: Bool = false,
        includesBodies: Bool = false,
        bodyLimit: Int = 4_096,
        redaction: Redaction = .default,
        sink: @escaping @Sendable (String) -> Void = LoggingAction.standardError
    ) {
        self.includesHeaders = includesHeaders
        self.includesBodies = includesBodies
        self.bodyLimit = bodyLimit
        self.redaction = redaction
        self.sink = sink
    }

    /// Writes a message and a newline to standard error: the default sink.
    @usableFromInline static let standardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Logs the request line (and headers and body when asked).
    public func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        sink(hidingCredentials(of: call).requestMessage(request))
        return request
    }

    /// Logs the response line (and headers and body when asked); never changes the outcome.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        sink(hidingCredentials(of: call).responseMessage(outcome))
        return .proceed
    }

    /// This action with a redaction that also hides the headers `call`'s auth actions set.
    private func hidingCredentials(of call: NetCall) -> LoggingAction {
        var action = self
        action.redaction = redaction.hidingCredentials(of: call)
        return action
    }

    /// `→ METHOD URL (size)` and the optional detail lines.
    func requestMessage(_ request: URLRequest) -> String {
        let body = request.httpBody ?? Data()
        let streamed = StreamedBodyDescription(of: request, redaction: redaction)
        let size = streamed.map { " (\($0.summary))" } ?? (body.isEmpty ? "" : " (\(body.count) B)")
        var lines = ["→ \(describe(request))" + size]
        if includesHeaders {
            lines += headerLines(HTTPHeaders((request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }))
        }
        if includesBodies, !body.isEmpty {
            lines += bodyLines(body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        }
        if includesBodies, let streamed {
            lines += streamed.partLines.map { "    " + $0 }
        }
        return SecretValues(of: request, hiddenBy: redaction, includingBody: includesBodies).scrub(lines.joined(separator: "\n"))
    }

    /// `← STATUS METHOD URL (duration, size, cache status)`, or `← failed …: reason`, and the optional detail lines.
    func responseMessage(_ outcome: AttemptOutcome) -> String {
        let target = outcome.request.map(describe) ?? "(no request)"
        let duration = outcome.duration.map { "\(Int(($0 * 1_000).rounded())) ms" }
        let measured = outcome.metrics.last.map(Self.facts) ?? []
        guard let http = outcome.httpResponse else {
            let reason = outcome.error?.description ?? "no HTTP response"
            let facts = ([duration].compactMap { $0 } + measured).joined(separator: ", ")
            return "← failed \(target)" + (facts.isEmpty ? "" : " (\(facts))") + ": \(reason)"
        }
        let body = outcome.data ?? Data()
        let size = outcome.isStreamedHead ? "streaming" : "\(body.count) B"
        // Where a cached response came from: `cache hit, age 12s`, `coalesced onto GET …`.
        let cache = outcome.head?.cacheStatus?.description
        let facts = ([duration, size, cache].compactMap { $0 } + measured).joined(separator: ", ")
        var lines = ["← \(http.statusCode) \(target) (\(facts))"]
        if let error = outcome.error {
            lines[0] += ": \(error.description)"
        }
        if includesHeaders {
            lines += headerLines(HTTPHeaders(http))
        }
        if includesBodies, !body.isEmpty {
            lines += bodyLines(body, contentType: http.value(forHTTPHeaderField: "Content-Type"))
        }
        return SecretValues(of: outcome.request, hiddenBy: redaction, includingBody: includesBodies).scrub(lines.joined(separator: "\n"))
    }

    /// What an attempt's metrics add to its response line: only what is worth a reader's eye.
    /// The cache's answer is not repeated: the line has the head's ``CacheStatus``, in more detail.
    private static func facts(_ metrics: AttemptMetrics) -> [String] {
        var facts: [String] = []
        if let head = metrics.timeToHead { facts.append("head \(Int((head * 1_000).rounded())) ms") }
        if metrics.bytesSent > 0 { facts.append("sent \(metrics.bytesSent) B") }
        if metrics.redirectCount > 0 { facts.append(metrics.redirectCount == 1 ? "1 redirect" : "\(metrics.redirectCount) redirects") }
        if metrics.attempt > 1 { facts.append("attempt \(metrics.attempt)") }
        return facts
    }

    private func describe(_ request: URLRequest) -> String {
        let url = request.url.map { redaction.redact($0).absoluteString } ?? "(no URL)"
        return "\(request.httpMethod ?? "GET") \(url)"
    }

    private func headerLines(_ headers: HTTPHeaders) -> [String] {
        redaction.redact(headers).map { "    \($0.name): \($0.value)" }
    }

    private func bodyLines(_ body: Data, contentType: String?) -> [String] {
        let text = BodyPreview(redaction: redaction, limit: bodyLimit).render(body, contentType: contentType)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    }
}
