import Foundation

/// Hands one firing's progress to a handler on the callback queue, throttled: at most one report
/// per direction every ``minimumInterval`` (10 a second) of the firing's clock, except the first,
/// and a last report at 100% exactly once per direction when the call succeeds. A retried
/// attempt's progress starts over from zero.
///
/// The interval is read on the firing function's ``NetworkClock``, so a mock paced under a test
/// clock reports as the test advances it, as it would over the seconds it stands for.
final class ProgressReporter: Sendable {
    /// The shortest time between two reports of one direction: 0.1 s.
    static let minimumInterval: TimeInterval = 0.1

    private struct Direction {
        var lastReportedAt: TimeInterval?
        var latest: TransferProgress?
        var hasReportedCompletion = false
    }

    private let handler: @Sendable (TransferProgress) -> Void
    private let queue: CallbackQueue
    private let clock: NetworkClock
    private let state = Locked((upload: Direction(), download: Direction()))

    init(_ handler: @escaping @Sendable (TransferProgress) -> Void, on queue: CallbackQueue, clock: NetworkClock = .live) {
        self.handler = handler
        self.queue = queue
        self.clock = clock
    }

    /// Reports `progress` unless one of its direction went out less than the interval ago.
    func report(_ progress: TransferProgress) {
        let now = clock.now()
        let isDue = state.withLock { state in
            switch progress.direction {
            case .upload: Self.update(&state.upload, with: progress, at: now)
            case .download: Self.update(&state.download, with: progress, at: now)
            }
        }
        if isDue { queue.run(handler, with: progress) }
    }

    /// Reports 100% for each direction that moved bytes and has not reported it yet: the call succeeded.
    func complete() {
        let finals = state.withLock { state in
            [Self.completion(of: &state.upload), Self.completion(of: &state.download)].compactMap { $0 }
        }
        for progress in finals { queue.run(handler, with: progress) }
    }

    private static func update(_ direction: inout Direction, with progress: TransferProgress, at now: TimeInterval) -> Bool {
        if let latest = direction.latest, progress.completedBytes < latest.completedBytes {
            // A retry sends or receives the body again: its progress starts over.
            direction = Direction()
        }
        guard !direction.hasReportedCompletion else { return false }
        direction.latest = progress
        if let last = direction.lastReportedAt, now - last < minimumInterval, !progress.isComplete { return false }
        direction.lastReportedAt = now
        direction.hasReportedCompletion = progress.isComplete
        return true
    }

    private static func completion(of direction: inout Direction) -> TransferProgress? {
        guard let latest = direction.latest, !direction.hasReportedCompletion else { return nil }
        direction.hasReportedCompletion = true
        return TransferProgress(direction: latest.direction, completedBytes: latest.completedBytes, expectedBytes: latest.completedBytes)
    }
}
