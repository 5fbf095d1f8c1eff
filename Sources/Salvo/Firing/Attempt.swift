import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt of the attempt loop (a call with actions): receives what the session reports and
/// hands it on to the loop. A call without actions has no attempt: the session reports to its
/// ``NetworkTask``.
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
    /// What the session is told: report events as they happen when the body is streamed or
    /// somebody listens to progress; the headers the call's auth actions set follow a redirect
    /// only on their origin.
    private let options: ExchangeOptions
    private let streamsBody: Bool
    private let reportsProgress: Bool
    private let state = Locked(State())
    /// The attempt's metrics so far; `nil` when the server does not collect them, so that an
    /// attempt without them carries, copies and locks nothing more (mock firing's hot path).
    private let meter: Locked<AttemptMeter>?
    private let handover = Locked(Handover())
    /// When the attempt was sent, for the outcome's duration.
    private let start: UInt64

    /// An attempt at sending `request`; `meter` is given when the server collects metrics.
    init(
        _ request: URLRequest,
        for task: NetworkTask,
        credentialHeaders: Set<String> = [],
        measuring meter: AttemptMeter? = nil
    ) {
        self.request = request
        self.meter = meter.map { Locked($0) }
        self.task = task
        streamsBody = task.streamsBody
        reportsProgress = task.reportsProgress
        options = ExchangeOptions(readsBodyAsItArrives: streamsBody || reportsProgress, credentialHeaders: credentialHeaders)
        start = DispatchTime.now().uptimeNanoseconds
    }

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock(body)
    }

    /// Starts the exchange on `session`; cancelling the task cancels it.
    func send(through session: any NetworkSession) {
        guard !task.isCancelled else {
            finish(NetworkError.cancelled)
            return
        }
        let sessionTask = session.start(request, options: options, receiver: self)
        // The loop stops an attempt itself; the task cancels the session task.
        handover.withLock { $0.sessionTask = sessionTask }
        task.onCancel(cancelling: sessionTask)
    }

    /// Stops the exchange: the loop has decided without the rest of it.
    func cancel() {
        handover.withLock { $0.sessionTask }?.cancel()
    }

    /// Whether the loop was handed a streamed head that still waits for ``deliverBody()``.
    var isAwaitingDecision: Bool { state.withLock { $0.phase == .awaitingDecision } }

    /// Lets the body of a decided head through: the chunks kept so far, then each as it arrives.
    ///
    /// The attempt reports the head and chunks to the task as a session would, under its own
    /// lock, so no chunk arriving now can overtake the kept ones.
    func deliverBody() {
        state.withLock { state in
            guard state.phase == .awaitingDecision, let head = state.head else { return }
            state.phase = .streaming
            task.receive(head)
            if let kept = state.body { task.receive(kept) }
            state.body = nil
        }
    }

    /// The next outcome handed on to the loop: a streamed head, or the end of the attempt.
    func nextOutcome() async -> AttemptOutcome {
        await withCheckedContinuation { continuation in
            let ready: AttemptOutcome? = handover.withLock { handover in
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

    /// The request body's length, where it is known without reading it.
    private var requestBodyLength: Int64? { NetworkTask.bodyLength(of: request) }

    func receive(_ chunk: Data) {
        let (isStreaming, received, expected) = withState { state in
            state.received += Int64(chunk.count)
            if state.phase == .streaming { return (true, state.received, state.expected) }
            if state.body == nil { state.body = chunk } else { state.body?.append(chunk) }
            return (false, state.received, state.expected)
        }
        meter?.withLock { $0.received(chunk.count) }
        if isStreaming { task.receive(chunk) }
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
        let failure = error.map { NetworkTask.failure($0, of: request) }
        var outcome = withState { state in
            let failure = failure.map { NetworkTask.telling($0, head: state.head, received: state.received) }
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

    private func handOn(_ outcome: AttemptOutcome) {
        var timed = outcome
        timed.duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
        let waiter: CheckedContinuation<AttemptOutcome, Never>? = handover.withLock { handover in
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
