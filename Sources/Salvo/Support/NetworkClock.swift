import Foundation

/// How Salvo waits, and what time it is: the pause before a retry, the latency and bandwidth of a
/// mock answer, and the 10-a-second limit on progress reports.
///
/// Production uses ``live``. Tests swap in ``immediate`` (no wait at all) or SalvoTesting's
/// `TestClock`, which waits until the test advances it, so back-off, latency and paced progress run
/// instantly and in a fixed order.
///
/// ```swift
/// call.firingFunction = .session(URLSession.shared, clock: .immediate)
/// call.firingFunction = .mock(routes, conditions: .slow(seed: 1), clock: testClock.clock)
/// ```
public struct NetworkClock: Sendable {
    private let body: @Sendable (TimeInterval) async throws -> Void
    private let currentTime: @Sendable () -> TimeInterval

    /// A clock from its operations: wait `seconds` (always finite and above zero), throwing
    /// `CancellationError` when the waiting task is cancelled; and read the time.
    ///
    /// - Parameters:
    ///   - sleep: waits `seconds` on this clock.
    ///   - now: seconds on this clock's own time line, which only moves forward; only differences
    ///     between two readings mean anything. The system's uptime by default.
    @_spi(Transport) public init(
        sleep: @escaping @Sendable (_ seconds: TimeInterval) async throws -> Void,
        now: @escaping @Sendable () -> TimeInterval = NetworkClock.uptime
    ) {
        body = sleep
        currentTime = now
    }

    /// Waits `seconds`, clamped to 0…1 hour so that a server's `Retry-After` or a careless latency
    /// can neither trap nor stall a call; a zero or invalid duration returns at once.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    @_spi(Transport) public func sleep(for seconds: TimeInterval) async throws {
        guard seconds.isFinite, seconds > 0 else { return }
        try await body(min(seconds, 3_600))
    }

    /// Seconds on this clock's time line: compare two readings, never a reading with a date.
    @_spi(Transport) public func now() -> TimeInterval {
        currentTime()
    }

    /// Wall-clock time: `Task.sleep`, and the system's uptime.
    public static let live = NetworkClock { seconds in
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }

    /// Never waits: every retry and every mock answer happens at once (cancellation still counts);
    /// its time is the system's uptime.
    public static let immediate = NetworkClock { _ in try Task.checkCancellation() }

    /// Seconds since the system started (`DispatchTime`), the time line of ``live`` and ``immediate``.
    @_spi(Transport) @Sendable public static func uptime() -> TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }
}
