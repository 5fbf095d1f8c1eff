import Foundation

/// How Salvo waits: the pause before a retry and the latency of a mock answer.
///
/// Production uses ``live``. Tests swap in ``immediate`` (no wait at all) or SalvoTesting's
/// `TestClock`, which waits until the test advances it, so back-off and latency run instantly and
/// in a fixed order.
///
/// ```swift
/// call.firingFunction = .session(URLSession.shared, clock: .immediate)
/// call.firingFunction = .mock(routes, conditions: .slow(seed: 1), clock: testClock.clock)
/// ```
public struct NetworkClock: Sendable {
    private let body: @Sendable (TimeInterval) async throws -> Void

    /// A clock from its one operation: wait `seconds` (always finite and above zero), throwing
    /// `CancellationError` when the waiting task is cancelled.
    public init(sleep: @escaping @Sendable (_ seconds: TimeInterval) async throws -> Void) {
        body = sleep
    }

    /// Waits `seconds`, clamped to 0…1 hour so that a server's `Retry-After` or a careless latency
    /// can neither trap nor stall a call; a zero or invalid duration returns at once.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    public func sleep(for seconds: TimeInterval) async throws {
        guard seconds.isFinite, seconds > 0 else { return }
        try await body(min(seconds, 3_600))
    }

    /// Wall-clock time: `Task.sleep`.
    public static let live = NetworkClock { seconds in
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }

    /// Never waits: every retry and every mock answer happens at once (cancellation still counts).
    public static let immediate = NetworkClock { _ in try Task.checkCancellation() }
}
