import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt at sending a call's request: receives what the session reports and hands it on,
/// to the task when it is the call's only attempt, otherwise to the attempt loop.
///
/// A whole-body call collects the body and hands on one outcome at the end. A streamed call
/// passes a 2xx head's body to the task as it arrives; with actions, it first hands the head to
/// the attempt loop and keeps the chunks that arrive meanwhile until ``deliverBody()``. A head
/// outside 2xx is collected whole in both cases: its body belongs to the error.
final class Attempt: ResponseReceiver {
    enum Phase {
        /// Collecting the body, to hand it on whole.
        case collecting
        /// A streamed 2xx head waits for the actions to decide; chunks are kept meanwhile.
        case awaitingDecision
        /// Passing chunks to the task as they arrive.
        case streaming
    }

    /// What the exchange has reported so far.
    struct State {
        var head: ResponseHead?
        var body: Data?
        /// Body bytes received, for progress.
        var received: Int64 = 0
        /// The body's length the head announced, for progress; read once, when the head arrives.
        var expected: Int64?
        var phase = Phase.collecting
    }

    /// What only an attempt of the loop keeps: kept apart so the call's only attempt (every
    /// call without actions, mock firing's hot path) carries and copies none of it.
    private struct Handover {
        /// Outcomes handed on but not yet taken by ``nextOutcome()``.
        var outcomes: [AttemptOutcome] = []
        var waiter: CheckedContinuation<AttemptOutcome, Never>?
        var sessionTask: (any NetworkSessionTask)?
    }

    private let request: URLRequest
    private let task: NetworkTask
    /// Whether the outcome finishes the task (the only attempt) rather than going to the loop.
    private let finishesTask: Bool
    /// What the session is told: report events as they happen when the body is streamed or
    /// somebody listens to progress; the headers the call's auth actions set follow a redirect
    /// only on their origin.
    private let options: ExchangeOptions
    private let streamsBody: Bool
    private let reportsProgress: Bool
    /// `nil` for the call's only attempt: its state is kept under the task's lock
    /// (``NetworkTask/withOnlyAttemptState(_:)``), one allocation and one lock fewer a firing.
    private let state: Locked<State>?
    /// The attempt's metrics so far; `nil` when the server does not collect them, so that an
    /// attempt without them carries, copies and locks nothing more (mock firing's hot path).
    private let meter: Locked<AttemptMeter>?
    /// `nil` for the call's only attempt.
    private let handover: Locked<Handover>?
    /// When the attempt was sent, for the outcome's duration: only actions see it, so only an
    /// attempt of the loop reads the clock.
    private let start: UInt64

    /// An attempt at sending `request`; `meter` is given when the server collects metrics.
    init(
        _ request: URLRequest,
        for task: NetworkTask,
        finishing finishesTask: Bool,
        credentialHeaders: Set<String> = [],
        measuring meter: AttemptMeter? = nil
    ) {
        self.request = request
        self.meter = meter.map { Locked($0) }
        self.task = task
        self.finishesTask = finishesTask
        streamsBody = task.streamsBody
        reportsProgress = task.reportsProgress
        options = ExchangeOptions(readsBodyAsItArrives: streamsBody || reportsProgress, credentialHeaders: credentialHeaders)
        start = finishesTask ? 0 : DispatchTime.now().uptimeNanoseconds
        handover = finishesTask ? nil : Locked(Handover())
        state = finishesTask ? nil : Locked(State())
    }

    /// Runs `body` with exclusive access to the attempt's state: its own, or the task's for the
    /// only attempt. `body` must not call into the task, whose lock it may be holding.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        guard let state else { return task.withOnlyAttemptState(body) }
        return state.withLock(body)
    }

    /// Starts the exchange on `session`; cancelling the task cancels it.
    ///
    /// - Parameter mayBeCancelled: whether anything could have cancelled the task yet; `false`
    ///   for a task nobody has been handed, which skips the lock that reads whether it was.
    func send(through session: any NetworkSession, mayBeCancelled: Bool = true) {
        guard !mayBeCancelled || !task.isCancelled else {
            finish(NetworkError.cancelled)
            return
        }
        let sessionTask = session.start(request, options: options, receiver: self)
        // Only the attempt loop stops an attempt itself; the task cancels the session task.
        handover?.withLock { $0.sessionTask = sessionTask }
        // A session that answered before returning (mock firing) left nothing to cancel: no lock taken.
        guard type(of: sessionTask) != FinishedSessionTask.self else { return }
        task.onCancel(cancelling: sessionTask)
    }

    /// Stops the exchange: the loop has decided without the rest of it.
    func cancel() {
        handover?.withLock { $0.sessionTask }?.cancel()
    }

    /// Whether the loop was handed a streamed head that still waits for ``deliverBody()``.
    var isAwaitingDecision: Bool { state?.withLock { $0.phase == .awaitingDecision } ?? false }

    /// Lets the body of a decided head through: the chunks kept so far, then each as it arrives.
    ///
    /// Only an attempt of the loop awaits a decision; it has a lock of its own, so the task may be called under it.
    func deliverBody() {
        state?.withLock { state in
            guard state.phase == .awaitingDecision, let head = state.head else { return }
            state.phase = .streaming
            // Under the lock, so no chunk arriving now can overtake the kept ones.
            task.beginBody(head)
            if let kept = state.body { task.receiveBody(kept) }
            state.body = nil
        }
    }

    /// The next outcome handed on to the loop: a streamed head, or the end of the attempt.
    func nextOutcome() async -> AttemptOutcome {
        await withCheckedContinuation { continuation in
            let ready: AttemptOutcome? = handover?.withLock { handover in
                if handover.outcomes.isEmpty {
                    handover.waiter = continuation
                    return nil
                }
                return handover.outcomes.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    // MARK: - ResponseReceiver

    func receive(_ head: ResponseHead) {
        let expected = reportsProgress ? head.expectedContentLength : nil
        let metrics = meter.map { meter in
            let bodyLength = requestBodyLength
            return meter.withLock { meter in
                meter.headArrived(requestBodyLength: bodyLength, cacheStatus: head.cacheStatus)
                return meter.metrics
            }
        }
        guard streamsBody, head.isSuccess else {
            withState { state in
                state.head = head
                state.expected = expected
            }
            return
        }
        if finishesTask {
            withState { state in
                state.head = head
                state.expected = expected
                state.phase = .streaming
            }
            task.beginBody(head)
        } else {
            withState { state in
                state.head = head
                state.expected = expected
                state.phase = .awaitingDecision
            }
            var outcome = AttemptOutcome(request: request, head: head)
            outcome.isStreamedHead = true
            if let metrics { outcome.metrics = [metrics] }
            handOn(outcome)
        }
    }

    /// The request body's length, where it is known without reading it.
    private var requestBodyLength: Int64? {
        if let body = request.httpBody { return Int64(body.count) }
        return (request.httpBodyStream as? BodyStream)?.length
    }

    func receive(_ chunk: Data) {
        let (isStreaming, received, expected) = withState { state in
            state.received += Int64(chunk.count)
            if state.phase == .streaming { return (true, state.received, state.expected) }
            if state.body == nil { state.body = chunk } else { state.body?.append(chunk) }
            return (false, state.received, state.expected)
        }
        meter?.withLock { $0.received(chunk.count) }
        if isStreaming { task.receiveBody(chunk) }
        if reportsProgress {
            task.report(TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected))
        }
    }

    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
        meter?.withLock { $0.sent(bytesSent) }
        if reportsProgress {
            // A streamed body sent chunked (Linux sends no Content-Length for a stream) still has
            // a known size: the stream's own.
            let expected = bytesExpected ?? (request.httpBodyStream as? BodyStream)?.length
            task.report(TransferProgress(direction: .upload, completedBytes: bytesSent, expectedBytes: expected))
        }
    }

    func didFollowRedirect() {
        meter?.withLock { $0.followedRedirect() }
    }

    func didCollect(_ taskMetrics: URLSessionTaskMetrics) {
        meter?.withLock { $0.collected(taskMetrics) }
    }

    func finish(_ error: (any Error)?) {
        let failure = error.map(failure)
        var outcome = withState { state in
            let failure = failure.map { Self.telling($0, head: state.head, received: state.received) }
            // A streamed body went to the task; one kept for a pending decision waits for it, with
            // its head. Otherwise nothing reads them again: they move into the outcome.
            guard state.phase != .awaitingDecision else {
                return AttemptOutcome(request: request, head: state.head, error: failure)
            }
            let head = state.head.take()
            let body = state.phase == .collecting ? state.body.take() ?? (head == nil ? nil : Data()) : nil
            return AttemptOutcome(request: request, head: head, data: body, error: failure)
        }
        if let meter { outcome.metrics = [meter.withLock { $0.ended() }] }
        handOn(outcome)
    }

    func finish(with head: ResponseHead, body: Data) {
        // A call that reads its body whole, with nobody measuring or listening to progress, keeps
        // nothing of the exchange but its outcome: made here, without the state or its lock.
        guard !streamsBody, !reportsProgress, meter == nil else {
            finishInParts(with: head, body: body)
            return
        }
        let outcome = AttemptOutcome(request: request, head: head, data: body)
        if finishesTask {
            task.finish(with: outcome)
        } else {
            handOn(outcome)
        }
    }

    /// Why the exchange failed: a file of the body that changed while it was sent, named, rather
    /// than the transport's "aborted" that it causes.
    private func failure(_ error: any Error) -> NetworkError {
        if let stream = request.httpBodyStream as? BodyStream, let reason = stream.failure {
            return .invalidRequest(RequestProblem(.body, reason))
        }
        return NetworkError(error, requestURL: request.url)
    }

    /// The codes a transport reports when the server closed the connection: URLSession's
    /// (`badServerResponse` on Linux when not a byte came back) and another transport's.
    private static let hangUpCodes: Set<URLError.Code> = [.badServerResponse, .networkConnectionLost, .zeroByteResource]

    /// `failure` telling what of the answer had arrived, for its description: the status of a
    /// head that came before a body stalled or dropped, or that the server hung up before a byte.
    private static func telling(_ failure: NetworkError, head: ResponseHead?, received: Int64) -> NetworkError {
        guard case .transport(let error) = failure else { return failure }
        if let head, head.isHTTP {
            return .transport(error.adding(head.statusCode, forKey: URLError.receivedStatusCodeKey))
        }
        if head == nil, received == 0, hangUpCodes.contains(error.code) {
            return .transport(error.adding(true, forKey: URLError.closedWithoutAnswerKey))
        }
        return failure
    }

    private func handOn(_ outcome: AttemptOutcome) {
        if finishesTask {
            task.finish(with: outcome)
            return
        }
        var timed = outcome
        timed.duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
        let waiter: CheckedContinuation<AttemptOutcome, Never>? = handover?.withLock { handover in
            guard let waiter = handover.waiter else {
                handover.outcomes.append(timed)
                return nil
            }
            handover.waiter = nil
            return waiter
        }
        waiter?.resume(returning: timed)
    }
}
