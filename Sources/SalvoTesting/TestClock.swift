import Foundation
@_spi(Transport) import Salvo

/// A `NetworkClock` that only moves when the test says so: retry back-off and mock latency
/// wait until ``advance(by:)``, so a test of a 30-second back-off runs in microseconds and in a
/// fixed order.
///
/// ```swift
/// let time = TestClock()
/// var call = flakyCall
/// call.firingFunction = .mock(.status(503), clock: time.clock)
/// let task = call.fire()
/// await time.waitForSleepers(1)        // the retry is waiting…
/// #expect(time.sleeps == [0.5])        // …for the policy's back-off
/// time.advance(by: 0.5)                // the second attempt fires now
/// ```
public final class TestClock: Sendable {
    private struct Sleeper {
        let deadline: TimeInterval
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: TimeInterval = 0
        var sleepers: [UUID: Sleeper] = [:]
        var cancelled: Set<UUID> = []
        var sleeps: [TimeInterval] = []
    }

    private let state = Locked(State())
    private let waiters = Waiters()

    /// A clock at time zero with nobody waiting.
    public init() {}

    /// The clock to inject: in a firing function (`.session(_:clock:)`, `.mock(…, clock:)`) or a
    /// `MockSession`. Its time is ``now``, so progress reports are throttled on it too.
    public var clock: NetworkClock {
        NetworkClock(sleep: { seconds in try await self.sleep(seconds) }, now: { self.now })
    }

    /// Seconds the clock has been advanced by.
    public var now: TimeInterval { state.withLock { $0.now } }

    /// Every wait asked of the clock, in seconds, in the order asked.
    public var sleeps: [TimeInterval] { state.withLock { $0.sleeps } }

    /// How many waits are pending.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves time forward by `seconds` and wakes every wait whose time has come, earliest first.
    public func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += max(0, seconds)
            let now = state.now
            let ids = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }.sorted { $0.deadline < $1.deadline }
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Moves time forward to the last pending deadline, waking every wait.
    public func runToEnd() {
        let latest = state.withLock { state in state.sleepers.values.map(\.deadline).max().map { $0 - state.now } }
        if let latest { advance(by: latest) }
    }

    /// Waits (in real time, at most `timeout` seconds) until `count` waits are pending.
    ///
    /// - Returns: whether they were.
    @discardableResult
    public func waitForSleepers(_ count: Int, timeout: TimeInterval = 30) async -> Bool {
        await waiters.wait(timeout: timeout) { self.sleeperCount >= count }
    }

    private func sleep(_ seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let isCancelled = state.withLock { state in
                    state.sleeps.append(seconds)
                    if state.cancelled.remove(id) != nil { return true }
                    state.sleepers[id] = Sleeper(deadline: state.now + seconds, continuation: continuation)
                    return false
                }
                if isCancelled { continuation.resume(throwing: CancellationError()) }
                waiters.signal()
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil as Sleeper?
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
