import Foundation

/// Simulated network conditions for mock firing: how long answers take and how often they fail.
///
/// Latency and failures are drawn from a small seeded generator (SplitMix64) seeded with ``seed``, so a run with the
/// same seed and the same order of requests behaves the same every time.
///
/// ```swift
/// let flaky = NetworkConditions(latency: 0.2...1.5, failureRate: 0.1, seed: 7)
/// call.firingFunction = .mock(routes, conditions: flaky)
/// ```
public struct NetworkConditions: Sendable, Hashable {
    /// Extra seconds before each answer, drawn uniformly from this range.
    public var latency: ClosedRange<TimeInterval>
    /// The share of requests, from 0 to 1, that fail with ``failure`` instead of being answered.
    public var failureRate: Double
    /// The transport error a failed request reports.
    public var failure: URLError.Code
    /// The seed of the generator that draws latencies and failures.
    public var seed: UInt64

    /// Conditions from their parts; the defaults are a perfect network.
    public init(
        latency: ClosedRange<TimeInterval> = 0...0,
        failureRate: Double = 0,
        failure: URLError.Code = .notConnectedToInternet,
        seed: UInt64 = 0
    ) {
        self.latency = latency
        self.failureRate = failureRate
        self.failure = failure
        self.seed = seed
    }

    /// No added latency and no failures.
    public static let ideal = NetworkConditions()

    /// Every request fails with `notConnectedToInternet`.
    public static let offline = NetworkConditions(failureRate: 1)

    /// A slow mobile network: 0.3–2 seconds per answer and 5% failures timing out.
    public static func slow(seed: UInt64 = 0) -> NetworkConditions {
        NetworkConditions(latency: 0.3...2, failureRate: 0.05, failure: .timedOut, seed: seed)
    }

    /// What the conditions do to one request.
    struct Draw: Sendable, Equatable {
        /// Seconds to wait before answering.
        let delay: TimeInterval
        /// Whether the request fails with ``NetworkConditions/failure``.
        let fails: Bool
    }

    /// Draws one request's delay and fate; always consumes two values so the sequence stays aligned.
    func draw(using generator: inout SplitMix64) -> Draw {
        let low = Self.clampedDelay(latency.lowerBound)
        let high = max(low, Self.clampedDelay(latency.upperBound))
        let delay = low + generator.nextUnitInterval() * (high - low)
        let rate = failureRate.isNaN ? 0 : min(max(failureRate, 0), 1)
        let fails = generator.nextUnitInterval() < rate
        return Draw(delay: delay, fails: fails)
    }

    /// Clamps seconds to 0…1 hour, so a careless value can neither trap nor stall a run forever.
    static func clampedDelay(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? 3_600 : 0 }
        return min(seconds, 3_600)
    }
}
