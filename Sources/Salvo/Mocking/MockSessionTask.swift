import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mock exchange that takes time: reports to its receiver from a Swift task that waits on the
/// session's clock, and finishes exactly once, either at the end of the answer or, when cancelled
/// first, with `URLError(.cancelled)` and nothing after it.
///
/// Reports never overlap: a cancel that arrives while a report is under way (from another thread,
/// or from the receiver itself) finishes the exchange right after that report returns.
final class MockSessionTask: NetworkSessionTask {
    private struct State {
        /// Nil once the exchange has finished, so the receiver is let go with it.
        var receiver: (any ResponseReceiver)?
        var isReporting = false
        var isCancelled = false
        var work: Task<Void, Never>?
    }

    private let state: Locked<State>

    private init(receiver: any ResponseReceiver) {
        state = Locked(State(receiver: receiver))
    }

    /// Starts `work`, which reports the exchange to `receiver` through the task it is given.
    ///
    /// Work that stops by throwing (cancelled while waiting, or a clock's own error) finishes the
    /// exchange with `URLError(.cancelled)` or that error, unless it has finished already.
    static func start(
        reportingTo receiver: any ResponseReceiver,
        _ work: @escaping @Sendable (MockSessionTask) async throws -> Void
    ) -> MockSessionTask {
        let task = MockSessionTask(receiver: receiver)
        let running = Task {
            do {
                try await work(task)
            } catch {
                task.finish(error is CancellationError ? URLError(.cancelled) : error)
            }
        }
        let hasEnded = task.state.withLock { state in
            if state.receiver != nil { state.work = running }
            return state.receiver == nil
        }
        if hasEnded { running.cancel() }
        return task
    }

    /// Reports the request body sent, `length` bytes, paced by `bandwidth` (at once without one).
    func send(_ length: Int, bandwidth: Double?, on clock: NetworkClock) async throws {
        guard length > 0 else { return }
        for step in BodyPacing(length: length, chunks: nil, bandwidth: bandwidth) {
            try await clock.sleep(for: step.wait)
            try report { $0.didSend(Int64(step.range.upperBound), of: Int64(length)) }
        }
    }

    /// Reports `answer`: its head, then its body paced by its chunks and `bandwidth`, then the
    /// end; or the error `answer` throws instead.
    func deliver(_ answer: () throws -> MockResponse.Resolved, bandwidth: Double?, on clock: NetworkClock) async throws {
        let resolved: MockResponse.Resolved
        do {
            resolved = try answer()
        } catch {
            finish(error)
            return
        }
        try report { $0.receive(resolved.head) }
        let body = resolved.body
        for step in BodyPacing(length: body.count, chunks: resolved.chunks, bandwidth: bandwidth) {
            try await clock.sleep(for: step.wait)
            let chunk = step.range.count == body.count
                ? body
                : body.subdata(in: (body.startIndex + step.range.lowerBound)..<(body.startIndex + step.range.upperBound))
            try report { $0.receive(chunk) }
        }
        finish(nil)
    }

    /// Stops the waiting and finishes with `URLError(.cancelled)`: now, or right after a report
    /// under way returns.
    func cancel() {
        let (work, receiver) = state.withLock { state -> (Task<Void, Never>?, (any ResponseReceiver)?) in
            let work = state.work
            guard state.receiver != nil, !state.isCancelled else { return (work, nil) }
            state.isCancelled = true
            guard !state.isReporting else { return (work, nil) }
            defer { state = State() }
            return (work, state.receiver)
        }
        work?.cancel()
        receiver?.finish(URLError(.cancelled))
    }

    /// Makes one report unless the exchange was cancelled or has finished.
    ///
    /// - Throws: `CancellationError` when it was, so the work stops.
    private func report(_ body: (any ResponseReceiver) -> Void) throws {
        let receiver = state.withLock { state -> (any ResponseReceiver)? in
            guard !state.isCancelled, let receiver = state.receiver else { return nil }
            state.isReporting = true
            return receiver
        }
        guard let receiver else { throw CancellationError() }
        body(receiver)
        let cancelledMeanwhile = state.withLock { state in
            state.isReporting = false
            guard state.isCancelled else { return false }
            state = State()
            return true
        }
        if cancelledMeanwhile {
            receiver.finish(URLError(.cancelled))
            throw CancellationError()
        }
    }

    /// Ends the exchange with `error` unless it has ended already.
    private func finish(_ error: (any Error)?) {
        let receiver = state.withLock { state -> (any ResponseReceiver)? in
            defer { state = State() }
            return state.receiver
        }
        receiver?.finish(error)
    }
}
