import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one attempt at a call measured: when it started, when the head and the last byte
/// arrived, how many bytes went each way, the redirects it followed, the cache's answer, and on
/// Apple platforms `URLSession`'s own task metrics.
///
/// Collected only for a server whose ``ServerConfig/collectsMetrics`` is `true`; otherwise no
/// clock is read and every `metrics` list is empty. Actions read the attempts so far in
/// ``AttemptOutcome/metrics`` (this attempt last); responses carry every attempt of the call in
/// ``NetworkResponse/metrics`` (and a ``TypedResponse``'s); ``LoggingAction`` adds them to its
/// response lines.
///
/// ```swift
/// var api = ServerConfig(host: "api.example.com")
/// api.collectsMetrics = true
/// let response = try await NetCall(server: api, endpoint: .get("/users")).response()
/// for attempt in response.metrics {
///     print(attempt.attempt, attempt.timeToHead ?? 0, attempt.bytesReceived)
/// }
/// ```
public struct AttemptMetrics: Sendable, Hashable {
    /// What a response cache answered for the attempt: the three-way summary metrics backends
    /// count, of the response's ``CacheStatus`` (which has the detail: age, staleness, coalescing).
    public enum CacheAnswer: String, Sendable, Hashable {
        /// The store answered: fresh without asking the server, or stale because the network or
        /// the server failed (``CacheStatus/Source/staleAfterError``).
        case hit
        /// The cache had nothing usable; the server answered.
        case miss
        /// The cache held a stale answer the server confirmed unchanged (a 304).
        case revalidated
    }

    /// 1 for the first attempt, 2 for the first retry, and so on (the `attempt` actions receive).
    public var attempt: Int
    /// When the attempt was handed to the session, by the wall clock.
    public var start: Date
    /// Seconds from ``start`` until the response head reached Salvo; `nil` when none did. When that
    /// was by the wall clock: `timeToHead.map(start.addingTimeInterval)`. A call that reads its
    /// body whole gets the head with the body from both transports (URLSession's completion
    /// handler, AsyncHTTPClient's whole-answer report), so there it is about ``duration``;
    /// stream the body to see when the head itself arrived.
    public var timeToHead: TimeInterval?
    /// Seconds from ``start`` until the attempt ended: the last byte arrived, or it failed; `nil`
    /// while it runs.
    public var duration: TimeInterval?
    /// Request body bytes sent: as the transport reported sending them or, when it reports no
    /// upload progress, the body's length once a response head arrived.
    public var bytesSent: Int64
    /// Response body bytes received, counted as they arrived (before any decoding).
    public var bytesReceived: Int64
    /// Redirects the transport followed, as far as it reports them (a session reports each one to its receiver).
    public var redirectCount: Int
    /// What a response cache answered; `nil` when no cache took part.
    public var cacheAnswer: CacheAnswer?
    /// The metrics Apple's `URLSession` collected for the attempt: DNS, connect, TLS and transfer
    /// timings per transaction. One per `URLSession` task, in order: the request, then each redirect
    /// Salvo followed (a task of its own, so each one's `redirectCount` is 0; count redirects
    /// with ``redirectCount``).
    ///
    /// Empty on Linux, where swift-corelibs-foundation collects none, over other transports, for
    /// an answer from a response cache, and for metrics `URLSession` delivers after the attempt
    /// ended. Two metrics are equal only when they hold the same task metrics objects.
    public var taskMetrics: [URLSessionTaskMetrics] = []

    /// Metrics from their parts; Salvo fills them while the attempt runs.
    @_spi(Transport) public init(
        attempt: Int,
        start: Date,
        timeToHead: TimeInterval? = nil,
        duration: TimeInterval? = nil,
        bytesSent: Int64 = 0,
        bytesReceived: Int64 = 0,
        redirectCount: Int = 0,
        cacheAnswer: CacheAnswer? = nil
    ) {
        self.attempt = attempt
        self.start = start
        self.timeToHead = timeToHead
        self.duration = duration
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.redirectCount = redirectCount
        self.cacheAnswer = cacheAnswer
    }
}

/// The running measurement of one attempt: intervals come from the firing's clock (the uptime
/// clock unless a test swapped it), so a change of the wall clock in the middle does not bend them.
struct AttemptMeter {
    private(set) var metrics: AttemptMetrics
    private let clock: NetworkClock
    private let startTime: TimeInterval

    init(attempt: Int, clock: NetworkClock) {
        metrics = AttemptMetrics(attempt: attempt, start: Date())
        self.clock = clock
        startTime = clock.now()
    }

    /// Seconds since the attempt started.
    private var elapsed: TimeInterval { max(0, clock.now() - startTime) }

    mutating func headArrived(requestBodyLength: Int64?, cacheStatus: CacheStatus?) {
        metrics.timeToHead = elapsed
        if metrics.bytesSent == 0, let requestBodyLength { metrics.bytesSent = requestBodyLength }
        metrics.cacheAnswer = cacheStatus.map { AttemptMetrics.CacheAnswer($0.source) }
    }

    mutating func received(_ byteCount: Int) {
        metrics.bytesReceived += Int64(byteCount)
    }

    mutating func sent(_ byteCount: Int64) {
        metrics.bytesSent = byteCount
    }

    mutating func followedRedirect() {
        metrics.redirectCount += 1
    }

    mutating func collected(_ taskMetrics: URLSessionTaskMetrics) {
        metrics.taskMetrics.append(taskMetrics)
    }

    /// The metrics with the end stamped on them; the first end counts.
    mutating func ended() -> AttemptMetrics {
        if metrics.duration == nil { metrics.duration = elapsed }
        return metrics
    }
}

extension AttemptMetrics.CacheAnswer {
    /// The answer a response whose head came from `source` stands for.
    init(_ source: CacheStatus.Source) {
        switch source {
        case .network: self = .miss
        case .cache, .staleAfterError: self = .hit
        case .revalidated: self = .revalidated
        }
    }
}
