import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One firing of a call: cancel it, or ask whether it has finished.
///
/// A task delivers exactly one outcome to its responder, in the handler order
/// ``NetworkResponder`` documents, on the call's callback queue; a streamed call's body goes to its
/// stream as it arrives, and the stream ends with the same outcome. Cancelling a task that has not finished
/// delivers ``NetworkError/cancelled`` at once, stops the request and any pending retry, and
/// drops whatever the transport reports later.
///
/// ```swift
/// let task = call.fire()
/// task.cancel()
/// ```
public final class NetworkTask: Sendable {
    private struct State {
        var isFinished = false
        var isCancelled = false
        /// Whether a streamed body has begun reaching ``bodyReceiver``.
        var hasBegunBody = false
        var cancellables: [any NetworkSessionTask] = []
    }

    /// Who receives the outcome: a closure, or (Salvo's own firing) a responder on its queue,
    /// kept in the task itself so that firing allocates no closure for it.
    private enum Recipient: Sendable {
        case closure(@Sendable (AttemptOutcome) -> Void)
        case responder(NetworkResponder, on: CallbackQueue, decoder: JSONDecoder)
    }

    private let state = Locked(State())
    private let recipient: Recipient
    /// Where a streamed call's body goes as it arrives; `nil` for a whole-body call.
    private let bodyReceiver: (any ResponseReceiver)?
    /// Who hears about progress; `nil` when nobody asked.
    private let progress: ProgressReporter?

    /// A task that hands its one outcome to `deliver`.
    ///
    /// Custom firing functions create one and call ``finish(with:)`` exactly when their work ends.
    init(deliver: @escaping @Sendable (AttemptOutcome) -> Void) {
        recipient = .closure(deliver)
        bodyReceiver = nil
        progress = nil
    }

    /// A task that hands its one outcome to `responder` on `queue` (its decoding handlers use
    /// `decoder` unless they have their own), and a streamed body to `bodyReceiver`; progress is
    /// throttled on `clock`.
    init(
        responder: NetworkResponder,
        on queue: CallbackQueue,
        decoder: JSONDecoder,
        streamingTo bodyReceiver: (any ResponseReceiver)? = nil,
        clock: NetworkClock
    ) {
        recipient = .responder(responder, on: queue, decoder: decoder)
        self.bodyReceiver = bodyReceiver
        progress = responder.progressHandler.map { ProgressReporter($0, on: queue, clock: clock) }
    }

    /// Whether the call reads its body as it arrives.
    var streamsBody: Bool { bodyReceiver != nil }

    /// Whether anybody listens to progress.
    var reportsProgress: Bool { progress != nil }

    /// Reports progress unless the task has finished.
    func report(_ transferProgress: TransferProgress) {
        guard let progress, !isFinished else { return }
        progress.report(transferProgress)
    }

    /// Hands `outcome` to the recipient: to a responder on its queue, directly on `.immediate`.
    private func deliver(_ outcome: AttemptOutcome) {
        switch recipient {
        case .closure(let deliver):
            deliver(outcome)
        case .responder(let responder, let queue, let decoder):
            // One binding of the payload: a second pattern would copy the responder again.
            if case .immediate = queue {
                responder.dispatch(outcome, decoder: decoder)
            } else {
                queue.run { responder.dispatch(outcome, decoder: decoder) }
            }
        }
    }

    /// Whether ``cancel()`` was called before the task finished.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the task has delivered its outcome (including by being cancelled).
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Cancels the call: delivers ``NetworkError/cancelled`` now unless it already finished, and
    /// stops the request and any pending retry.
    public func cancel() {
        let cancellables: [any NetworkSessionTask]? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.isCancelled = true
            defer { state.cancellables = [] }
            return state.cancellables
        }
        guard let cancellables else { return }
        bodyReceiver?.finish(NetworkError.cancelled)
        deliver(AttemptOutcome(request: nil, error: .cancelled))
        cancellables.forEach { $0.cancel() }
    }

    /// Registers work to run when the task is cancelled; runs it now if it already was.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        onCancel(cancelling: CancelHandler(run: handler))
    }

    /// Cancels `sessionTask` when this task is cancelled; at once if it already was.
    ///
    /// Nothing is kept once the task has finished, so a session that answered at once costs nothing here.
    func onCancel(cancelling sessionTask: any NetworkSessionTask) {
        let cancelNow = state.withLock { state in
            if state.isCancelled { return true }
            if !state.isFinished { state.cancellables.append(sessionTask) }
            return false
        }
        if cancelNow { sessionTask.cancel() }
    }

    /// Delivers `outcome` unless the task already finished or was cancelled.
    ///
    /// - Returns: whether this call delivered it.
    @discardableResult
    func finish(with outcome: AttemptOutcome) -> Bool {
        let isFirst = state.withLock { state in
            guard !state.isFinished else { return false }
            state.isFinished = true
            state.cancellables = []
            return true
        }
        guard isFirst else { return false }
        if let progress, case .success = outcome.result { progress.complete() }
        if let bodyReceiver { end(bodyReceiver, with: outcome) }
        deliver(outcome)
        return true
    }

    /// Starts a streamed body: hands `head` to the body receiver unless the task has finished.
    func beginBody(_ head: ResponseHead) {
        let isOpen = state.withLock { state in
            state.hasBegunBody = !state.isFinished
            return state.hasBegunBody
        }
        if isOpen { bodyReceiver?.receive(head) }
    }

    /// Hands the next chunk of a streamed body to the body receiver unless the task has finished.
    func receiveBody(_ chunk: Data) {
        guard let bodyReceiver, !isFinished else { return }
        bodyReceiver.receive(chunk)
    }

    /// Ends the body receiver's stream with `outcome`; a body that arrived whole (a session or
    /// firing function that does not stream) reaches it as one chunk first.
    private func end(_ bodyReceiver: any ResponseReceiver, with outcome: AttemptOutcome) {
        let hasBegunBody = state.withLock { $0.hasBegunBody }
        if hasBegunBody {
            bodyReceiver.finish(outcome.error)
            return
        }
        switch outcome.result {
        case .success(let body):
            if let head = outcome.head { bodyReceiver.receive(head) }
            if !body.isEmpty { bodyReceiver.receive(body) }
            bodyReceiver.finish(nil)
        case .failure(let error):
            bodyReceiver.finish(error)
        }
    }
}

/// A cancel handler stored as a session task, so that handlers and session tasks share one list.
private struct CancelHandler: NetworkSessionTask {
    let run: @Sendable () -> Void

    func cancel() { run() }
}

extension NetworkResponder {
    /// Hands one outcome to the handlers in the documented order, with the call's `decoder` bound
    /// for decoding handlers that use it: the one dispatch path that production, mock and replay
    /// firing all share.
    func dispatch(_ outcome: AttemptOutcome, decoder: JSONDecoder) {
        if usesServerDecoder {
            ResponderDispatch.$serverDecoder.withValue(decoder) { dispatch(outcome) }
        } else {
            dispatch(outcome)
        }
    }

    /// Hands one outcome to the handlers in the documented order.
    private func dispatch(_ outcome: AttemptOutcome) {
        if outcome.error?.isUnsent != true {
            headHandler?(outcome.head)
            onResponse?(outcome.response)
        }
        if let onHTTPResponse, let http = outcome.httpResponse {
            onHTTPResponse(http)
        }
        if let metricsHandler, !outcome.metrics.isEmpty {
            metricsHandler(outcome.metrics)
        }
        switch outcome.result {
        case .success(let data):
            dataHandler(data)
        case .failure(let error) where error.statusCode != nil:
            errorDataHandler(outcome.data)
            serverErrorHandler(error)
        case .failure(let error):
            errorHandler(error)
            errorDataHandler(outcome.data)
        }
    }
}
