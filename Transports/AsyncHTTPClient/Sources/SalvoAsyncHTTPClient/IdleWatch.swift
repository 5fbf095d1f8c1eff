import NIOConcurrencyHelpers
import NIOCore

/// Ends a session's exchanges that go idle for their whole ``IdleTimeout``, with one scheduled
/// check for all of them.
///
/// A timer per exchange cost about 12k instructions per small request (benchmark 11, callgrind): a
/// quarter of what Salvo added to raw AsyncHTTPClient, because NIO keeps scheduled tasks in a heap
/// and cancelling one when its exchange ends takes it out again. The watch keeps the
/// exchanges that have a timeout and one check, scheduled for the earliest moment any of them
/// could expire, so an exchange that starts or ends only takes a lock. Exchanges mostly share a
/// timeout (`URLRequest`'s 60 s), so a new one rarely moves the check earlier.
///
/// The check ends the exchanges idle for their whole timeout and schedules itself again for the
/// next moment one could expire. As exchanges see traffic that moment moves later: a check that
/// finds every exchange busy only schedules the next one. Timeouts stay exact: a check runs at the
/// very deadline of the exchange it was scheduled for.
final class IdleWatch: Sendable {
    private struct State {
        var exchanges: [ObjectIdentifier: Exchange] = [:]
        /// The scheduled check, and when it runs.
        var check: (at: NIODeadline, task: Scheduled<Void>)?
    }

    private let eventLoop: any EventLoop
    private let state = NIOLockedValueBox(State())

    /// A watch whose checks run on `eventLoop`.
    init(on eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Watches `exchange`, which could first expire at `deadline`, until ``unwatch(_:)``.
    func watch(_ exchange: Exchange, expiringAt deadline: NIODeadline) {
        let replaced = state.withLockedValue { state in
            state.exchanges[ObjectIdentifier(exchange)] = exchange
            return scheduleCheck(at: deadline, in: &state)
        }
        replaced?.cancel()
    }

    /// Stops watching `exchange`, which has ended.
    func unwatch(_ exchange: Exchange) {
        state.withLockedValue { state in
            _ = state.exchanges.removeValue(forKey: ObjectIdentifier(exchange))
        }
    }

    /// The number of exchanges watched, for tests.
    var count: Int { state.withLockedValue { $0.exchanges.count } }

    /// Schedules the check at `deadline` unless one runs earlier; returns a later check it replaces.
    ///
    /// Scheduling happens under the watch's lock, which NIO never waits for: only a new earliest
    /// deadline schedules, so the lock is seldom held for it.
    private func scheduleCheck(at deadline: NIODeadline, in state: inout State) -> Scheduled<Void>? {
        if let check = state.check, check.at <= deadline { return nil }
        let replaced = state.check?.task
        state.check = (deadline, eventLoop.scheduleTask(deadline: deadline) { [self] in check() })
        return replaced
    }

    /// Ends the exchanges idle for their whole timeout and schedules the next check.
    private func check() {
        let now = NIODeadline.now()
        let exchanges = state.withLockedValue { state in
            if let check = state.check, check.at <= now { state.check = nil }
            return Array(state.exchanges.values)
        }
        // Outside the watch's lock: an exchange that expires takes its own lock and may end.
        var next: NIODeadline?
        for exchange in exchanges {
            guard let deadline = exchange.expireIfIdle(at: now) else { continue }
            next = min(next ?? deadline, deadline)
        }
        guard let next else { return }
        let replaced = state.withLockedValue { scheduleCheck(at: next, in: &$0) }
        replaced?.cancel()
    }
}
