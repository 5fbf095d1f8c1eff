import Foundation

/// Simulated network conditions for mock firing: how long answers take, how fast bodies travel
/// and how often requests fail.
///
/// Latency, bandwidth and failures are drawn from a small seeded generator (SplitMix64) seeded
/// with its `seed`, so a run with the same seed and the same order of requests behaves the same
/// every time.
///
/// ```swift
/// let flaky = NetworkConditions(latency: 0.2...1.5, failureRate: 0.1, seed: 7)
/// call.firingFunction = .mock(routes, conditions: flaky)
///
/// let slowDownload = NetworkConditions(bandwidth: 20_000...50_000, seed: 7)   // 20–50 kB/s
/// ```
public struct NetworkConditions: Sendable, Hashable {
    /// Extra seconds before each answer, drawn uniformly from this range.
    var latency: ClosedRange<TimeInterval>
    /// Bytes per second a body travels at, drawn once per request from this range; `nil` (the
    /// default) for no limit.
    ///
    /// With a bandwidth, the request body is reported sent (`ResponseReceiver/didSend(_:of:)`)
    /// and the response body arrives in chunks, one every 50 ms or so, each as many bytes as
    /// the drawn bandwidth carries in that time, so a download and an upload progress bar can be
    /// watched offline. A value that is not positive and finite means no limit.
    var bandwidth: ClosedRange<Double>?
    /// The share of requests, from 0 to 1, that fail with `failure` instead of being answered.
    var failureRate: Double
    /// The transport error a failed request reports.
    var failure: URLError.Code
    /// The seed of the generator that draws latencies and failures.
    var seed: UInt64

    /// How often a body limited by `bandwidth` moves on: a chunk about every 50 ms.
    static let tick: TimeInterval = 0.05

    /// Conditions from their parts; the defaults are a perfect network.
    ///
    /// - Parameters:
    ///   - latency: extra seconds before each answer, drawn uniformly from this range.
    ///   - bandwidth: bytes per second a body travels at, drawn once per request from this range;
    ///     `nil` (the default) for no limit. With a bandwidth, the request body is reported sent
    ///     and the response body arrives in chunks, one every 50 ms or so, so a download and an
    ///     upload progress bar can be watched offline. A value that is not positive and finite
    ///     means no limit.
    ///   - failureRate: the share of requests, from 0 to 1, that fail with `failure` instead of
    ///     being answered.
    ///   - failure: the transport error a failed request reports.
    ///   - seed: the seed of the generator that draws latencies, bandwidths and failures.
    public init(
        latency: ClosedRange<TimeInterval> = 0...0,
        bandwidth: ClosedRange<Double>? = nil,
        failureRate: Double = 0,
        failure: URLError.Code = .notConnectedToInternet,
        seed: UInt64 = 0
    ) {
        self.latency = latency
        self.bandwidth = bandwidth
        self.failureRate = failureRate
        self.failure = failure
        self.seed = seed
    }

    /// Every request fails with `notConnectedToInternet`.
    public static let offline = NetworkConditions(failureRate: 1)

    /// A slow mobile network: 0.3–2 seconds per answer and 5% failures timing out.
    public static func slow(seed: UInt64 = 0) -> NetworkConditions {
        NetworkConditions(latency: 0.3...2, failureRate: 0.05, failure: .timedOut, seed: seed)
    }

    /// A poor mobile connection, like the "Slow 3G" throttling of browsers' developer tools:
    /// 0.4–0.8 seconds before each answer and 40–60 kB/s each way, without failures.
    ///
    /// ```swift
    /// call.firingFunction = .mock(.data(photo), conditions: .slow3G(seed: 2))
    /// ```
    public static func slow3G(seed: UInt64 = 0) -> NetworkConditions {
        NetworkConditions(latency: 0.4...0.8, bandwidth: 40_000...60_000, seed: seed)
    }

    /// What the conditions do to one request.
    struct Draw: Sendable, Equatable {
        /// Seconds to wait before answering.
        let delay: TimeInterval
        /// Whether the request fails with the conditions' `failure`.
        let fails: Bool
        /// Bytes per second the bodies travel at; nil for no limit.
        var bandwidth: Double? = nil
    }

    /// Draws one request's delay, fate and bandwidth; always consumes two values, and a third
    /// when a bandwidth is set, so the sequence stays aligned (and conditions without a bandwidth
    /// draw what they drew before bandwidths existed).
    func draw(using generator: inout SplitMix64) -> Draw {
        let low = Self.clampedDelay(latency.lowerBound)
        let high = max(low, Self.clampedDelay(latency.upperBound))
        let delay = low + generator.nextUnitInterval() * (high - low)
        let rate = failureRate.isNaN ? 0 : min(max(failureRate, 0), 1)
        let fails = generator.nextUnitInterval() < rate
        guard let bandwidth else { return Draw(delay: delay, fails: fails) }
        let drawn = bandwidth.lowerBound + generator.nextUnitInterval() * (bandwidth.upperBound - bandwidth.lowerBound)
        return Draw(delay: delay, fails: fails, bandwidth: drawn.isFinite && drawn > 0 ? drawn : nil)
    }

    /// Clamps seconds to 0…1 hour, so a careless value can neither trap nor stall a run forever.
    static func clampedDelay(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? 3_600 : 0 }
        return min(seconds, 3_600)
    }
}
