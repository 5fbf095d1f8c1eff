import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fires a failed call again after an exponentially growing, jittered delay.
///
/// A call is retried when its method is in ``retryableMethods`` (idempotent methods by default;
/// add `.post` or `.patch` to opt in), it has attempts left, and it failed with a status in
/// ``retryableStatusCodes`` or a transport error in ``retryableErrors``. A `Retry-After` header
/// (seconds or an HTTP date) replaces the computed delay (an unreadable one is ignored); one longer than ``maxRetryAfter`` ends
/// the retries instead of stalling the call. Cancelling the call cancels a pending retry.
///
/// Put it first (outermost), so it decides after refresh and validation have spoken:
///
/// ```swift
/// api.actions = [RetryAction(maxAttempts: 4), refresher, auth, LoggingAction()]
/// var upload = RetryAction()
/// upload.retryableMethods.insert(.post)   // POSTs this server handles idempotently
/// ```
public struct RetryAction: NetworkAction {
    /// Total attempts including the first; 1 never retries.
    public var maxAttempts: Int
    /// The delay before the first retry, in seconds; it doubles for each further retry.
    public var baseDelay: TimeInterval
    /// The largest computed delay, in seconds.
    public var maxDelay: TimeInterval
    /// The fraction of each delay that is random (0 none, 1 anywhere from 0 to the full delay),
    /// so clients that failed together do not retry together.
    public var jitter: Double
    /// Statuses worth another try.
    public var retryableStatusCodes: Set<Int>
    /// Transport failures worth another try.
    public var retryableErrors: Set<URLError.Code>
    /// Methods that may be retried.
    public var retryableMethods: Set<HTTPMethod>
    /// The longest `Retry-After` honoured, in seconds; a longer one is not retried.
    public var maxRetryAfter: TimeInterval
    /// Returns a number in `0..<1`; swapped by tests (`@_spi(Testing) import Salvo`) to be deterministic.
    @_spi(Testing) public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// The current date, for `Retry-After` dates; swapped by tests (`@_spi(Testing) import Salvo`).
    @_spi(Testing) public var now: @Sendable () -> Date = Date.init

    /// `408`, `429`, `500`, `502`, `503` and `504`: ``retryableStatusCodes`` unless the initializer is told otherwise.
    @usableFromInline static let defaultStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Timeouts, dropped or refused connections, DNS failures and being offline: ``retryableErrors``
    /// unless the initializer is told otherwise.
    @usableFromInline static let defaultErrors: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost,
        .dnsLookupFailed, .notConnectedToInternet,
    ]

    /// A retry policy; every parameter has a sensible default. To add to a default set, change
    /// the property: `retry.retryableStatusCodes.insert(425)`.
    ///
    /// - Parameters:
    ///   - maxAttempts: total attempts including the first; 1 never retries.
    ///   - baseDelay: the delay before the first retry, in seconds; it doubles for each further retry.
    ///   - maxDelay: the largest computed delay, in seconds.
    ///   - jitter: the fraction of each delay that is random.
    ///   - retryableStatusCodes: statuses worth another try: 408, 429, 500, 502, 503 and 504 by default.
    ///   - retryableErrors: transport failures worth another try: timeouts, dropped or refused
    ///     connections, DNS failures and being offline by default.
    ///   - retryableMethods: methods that may be retried: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`
    ///     and `TRACE` (those whose ``HTTPMethod/isIdempotent`` is true) by default.
    ///   - maxRetryAfter: the longest `Retry-After` honoured, in seconds.
    public init(
        maxAttempts: Int = 3,
        baseDelay: TimeInterval = 0.5,
        maxDelay: TimeInterval = 30,
        jitter: Double = 0.5,
        retryableStatusCodes: Set<Int> = RetryAction.defaultStatusCodes,
        retryableErrors: Set<URLError.Code> = RetryAction.defaultErrors,
        retryableMethods: Set<HTTPMethod> = HTTPMethod.idempotentMethods,
        maxRetryAfter: TimeInterval = 60
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableErrors = retryableErrors
        self.retryableMethods = retryableMethods
        self.maxRetryAfter = maxRetryAfter
    }

    /// Retries a retryable failure after the backoff or `Retry-After` delay; otherwise proceeds.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        guard attempt < maxAttempts, retryableMethods.contains(call.endpoint.method), isRetryable(outcome) else {
            return .proceed
        }
        if let header = outcome.httpResponse?.value(forHTTPHeaderField: "Retry-After"),
           let seconds = retryAfter(header) {
            return seconds <= maxRetryAfter ? .retryAfter(seconds) : .proceed
        }
        return .retryAfter(delay(afterAttempt: attempt))
    }

    /// Whether the outcome failed in a way worth another try.
    func isRetryable(_ outcome: AttemptOutcome) -> Bool {
        switch outcome.error {
        case .transport(let error)?: return retryableErrors.contains(error.code)
        case nil: return outcome.statusCode.map(retryableStatusCodes.contains) ?? false
        default: return false
        }
    }

    /// The jittered backoff before retry number `attempt`: `baseDelay × 2^(attempt−1)`, capped
    /// at `maxDelay`, minus up to `jitter` of itself.
    func delay(afterAttempt attempt: Int) -> TimeInterval {
        let exponential = baseDelay * pow(2, Double(max(0, min(attempt - 1, 62))))
        let capped = min(exponential, maxDelay)
        let fraction = min(max(jitter, 0), 1) * min(max(random(), 0), 1)
        return max(0, capped * (1 - fraction))
    }

    /// Seconds to wait for a `Retry-After` value: delay-seconds or an HTTP date; `nil` when unreadable.
    func retryAfter(_ value: String) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        guard let date = HTTPDate.date(text) else { return nil }
        return max(0, date.timeIntervalSince(now()))
    }
}
