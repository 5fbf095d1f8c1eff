import Foundation

/// What one attempt at a call measured: when it started, when the head and the last byte
/// arrived, how many bytes went each way, the redirects it followed, and the cache's answer.
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
    /// What a response cache answered for the attempt.
    public enum CacheAnswer: String, Sendable, Hashable {
        /// The cache answered; nothing was sent.
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
    /// Seconds from ``start`` until the response head arrived; `nil` when none did.
    public var timeToHead: TimeInterval?
    /// Seconds from ``start`` until the attempt ended: the last byte arrived, or it failed.
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

    /// Metrics from their parts; Salvo fills them while the attempt runs.
    public init(
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

    /// When the response head arrived, by the wall clock; `nil` when none did.
    public var headArrival: Date? { timeToHead.map(start.addingTimeInterval) }

    /// When the attempt ended, by the wall clock; `nil` while it runs.
    public var end: Date? { duration.map(start.addingTimeInterval) }
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

    mutating func headArrived(requestBodyLength: Int64?) {
        metrics.timeToHead = elapsed
        if metrics.bytesSent == 0, let requestBodyLength { metrics.bytesSent = requestBodyLength }
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

    /// The metrics with the end stamped on them; the first end counts.
    mutating func ended() -> AttemptMetrics {
        if metrics.duration == nil { metrics.duration = elapsed }
        return metrics
    }
}
