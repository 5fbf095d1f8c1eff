import Foundation
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// A ``NetworkClock`` that never waits but remembers every wait asked of it.
final class RecordingClock: Sendable {
    private let recorded = Locked<[TimeInterval]>([])

    /// The clock to inject.
    var clock: NetworkClock {
        NetworkClock { seconds in
            try Task.checkCancellation()
            self.recorded.withLock { $0.append(seconds) }
        }
    }

    /// Every wait asked of the clock, in seconds, in order.
    var waits: [TimeInterval] { recorded.withLock { $0 } }
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass; returns whether it held. The
/// default is long so that a loaded two-core CI machine never fails a test that only waits.
func eventually(within seconds: Double = 30, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
}

/// What `task` returns, or `nil` when it has not finished within `seconds`. Unlike awaiting
/// `task.value` under `withTimeout`, a task that never finishes fails the test instead of hanging it.
func finished<Value: Sendable>(_ task: Task<Value, Never>, within seconds: Double = 20) async -> Value? {
    let result = Locked<Value?>(nil)
    Task {
        let value = await task.value
        result.withLock { $0 = value }
    }
    guard await eventually(within: seconds, { result.withLock { $0 != nil } }) else { return nil }
    return result.withLock { $0 }
}

/// A one-shot event a test can await (bounded), fired from any thread.
final class Signal: Sendable {
    private let isFired = Locked(false)
    private let waiters = Waiters()

    func fire() {
        isFired.withLock { $0 = true }
        waiters.signal()
    }

    /// Returns once fired; throws ``TimedOut`` after `seconds`.
    func wait(seconds: Double = 30) async throws {
        guard await waiters.wait(timeout: seconds, until: { self.isFired.withLock { $0 } }) else { throw TimedOut(seconds: seconds) }
    }
}

extension TestClock {
    /// Advances through every wait of the exchange `log` receives until it ends (at most 30 s of real time).
    func runUntilFinished(_ log: ReceiverLog) async {
        let deadline = Date().addingTimeInterval(30)
        while !log.isFinished, Date() < deadline {
            if await waitForSleepers(1, timeout: 0.01) { runToEnd() }
        }
    }
}
