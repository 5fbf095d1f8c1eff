import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One firing of a call: cancel it, or ask whether it has finished.
///
/// A task delivers exactly one outcome to the ``FiringFunction/Channel`` it was fired with: to the
/// responder in the handler order ``NetworkResponder`` documents, on the call's callback queue,
/// or to the awaiting caller; a streamed call's body goes to its stream as it arrives, and the
/// stream ends with the same outcome. Cancelling a task that has not finished
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
        /// The state of the call's only attempt (a call without actions), under this lock rather
        /// than one of its own: one allocation fewer a firing.
        var onlyAttempt = Attempt.State()
    }

    private let state = Locked(State())
    /// Where the outcome goes, and a streamed body as it arrives.
    private let channel: FiringFunction.Channel
    /// The decoder the responder's decoding handlers use unless they have their own.
    private let decoder: JSONDecoder
    /// Where a streamed call's body goes as it arrives; `nil` for a whole-body call.
    private var bodyReceiver: (any ResponseReceiver)? { channel.bodyReceiver }
    /// Who hears about progress; `nil` when nobody asked.
    private let progress: ProgressReporter?
    /// Whether the call reads its body as it arrives: read once, not through the channel each time.
    let streamsBody: Bool

    /// A task that hands its one outcome to `channel` (a responder's decoding handlers use
    /// `decoder` unless they have their own); progress is throttled on `clock`.
    init(reportingTo channel: consuming FiringFunction.Channel, decoder: JSONDecoder, clock: borrowing NetworkClock) {
        self.decoder = decoder
        streamsBody = channel.bodyReceiver != nil
        progress = channel.progressHandler.map { ProgressReporter($0, on: channel.queue, clock: copy clock) }
        // Moved in rather than copied and the original destroyed.
        self.channel = consume channel
    }

    /// Whether anybody listens to progress.
    var reportsProgress: Bool { progress != nil }

    /// Reports progress unless the task has finished.
    func report(_ transferProgress: TransferProgress) {
        guard let progress, !isFinished else { return }
        progress.report(transferProgress)
    }

    /// Hands `outcome` to the channel's destination, after its finish handlers: to a responder
    /// on its queue (directly on `.immediate`), or as one `Result` right here.
    private func deliver(_ outcome: AttemptOutcome) {
        if !channel.finishHandlers.isEmpty {
            let error: NetworkError? = if case .failure(let error) = outcome.result { error } else { nil }
            for handler in channel.finishHandlers { handler(error) }
        }
        switch channel.destination {
        case .result(let completion):
            completion(Self.reported(outcome))
        case .responder(let responder, let queue, let completion):
            let decoder = decoder
            if case .immediate = queue {
                responder.dispatch(outcome, decoder: decoder)
                completion?(Self.reported(outcome))
            } else {
                queue.run {
                    responder.dispatch(outcome, decoder: decoder)
                    completion?(Self.reported(outcome))
                }
            }
        case .bodyStream:
            break
        }
    }

    /// `outcome` as one `Result`: the body with the head and metrics it came with, or the error.
    private static func reported(_ outcome: AttemptOutcome) -> Result<NetworkResponse, NetworkError> {
        outcome.result.map { NetworkResponse(data: $0, head: outcome.head, metrics: outcome.metrics) }
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
        if streamsBody { bodyReceiver?.finish(NetworkError.cancelled) }
        deliver(AttemptOutcome(request: nil, error: .cancelled))
        cancellables.forEach { $0.cancel() }
    }

    /// Runs `body` with exclusive access to the state of the call's only attempt.
    ///
    /// `body` runs under the task's lock, so it must not call back into the task.
    func withOnlyAttemptState<Result>(_ body: (inout Attempt.State) -> Result) -> Result {
        state.withLock { body(&$0.onlyAttempt) }
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
        if streamsBody, let bodyReceiver { end(bodyReceiver, with: outcome) }
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
        guard streamsBody, let bodyReceiver, !isFinished else { return }
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
