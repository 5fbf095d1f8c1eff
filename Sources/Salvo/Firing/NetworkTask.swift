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
    /// The one lock of the firing, around the ``State``'s events and nothing else: no session call,
    /// handler, resume or body-receiver call runs under it.
    private let state: Locked<State>
    /// Where the outcome goes, and a streamed body as it arrives.
    private let channel: FiringFunction.Channel
    /// The decoder the responder's decoding handlers use unless they have their own.
    private let decoder: JSONDecoder
    /// Who hears about progress; `nil` when nobody asked.
    private let progress: ProgressReporter?
    /// Whether the call reads its body as it arrives: read once, not through the channel each time.
    let streamsBody: Bool

    /// A task that hands its one outcome to `channel` (a responder's decoding handlers use
    /// `decoder` unless they have their own); progress is throttled on `clock`.
    ///
    /// - Parameters:
    ///   - request: the request of the call's only attempt, whose exchange the session reports
    ///     to this task; `nil` when the attempt loop of a call with actions sends the attempts
    ///     (``start(_:of:refusedWith:measuring:through:options:)``), or nothing is sent.
    ///   - collectsMetrics: whether the only attempt is measured (the server collects metrics).
    init(
        reportingTo channel: consuming FiringFunction.Channel,
        decoder: JSONDecoder,
        clock: borrowing NetworkClock,
        receiving request: URLRequest? = nil,
        collectsMetrics: Bool = false
    ) {
        self.decoder = decoder
        let streamsBody = channel.bodyReceiver != nil
        self.streamsBody = streamsBody
        progress = channel.progressHandler.map { ProgressReporter($0, on: channel.queue, clock: copy clock) }
        var isAwaiting = false
        if case .awaiting = channel.destination { isAwaiting = true }
        state = Locked(State(
            request: request,
            streamsBody: streamsBody,
            reportsProgress: progress != nil,
            parksOutcome: isAwaiting,
            handsOverAfterHandlers: isAwaiting && !channel.finishHandlers.isEmpty,
            // Made here, in the argument, rather than handed in and copied: an optional meter
            // is copied and destroyed through its value witness (its metrics hold resilient types).
            meter: request != nil && collectsMetrics ? AttemptMeter(attempt: 1, clock: copy clock) : nil
        ))
        // Moved in rather than copied and the original destroyed.
        self.channel = consume channel
    }

    /// Whether anybody listens to progress.
    var reportsProgress: Bool { progress != nil }

    /// Whether ``cancel()`` was called before the task finished.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the task has delivered its outcome (including by being cancelled).
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Cancels the call: delivers ``NetworkError/cancelled`` now unless it already finished, and
    /// stops the request and any pending retry.
    public func cancel() {
        run(state.withLock { $0.cancel() })
    }

    /// Registers work to run when the task is cancelled; runs it now if it already was.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        onCancel(cancelling: CancelHandler(run: handler))
    }

    /// Cancels `sessionTask` when this task is cancelled; at once if it already was.
    ///
    /// Nothing is kept once the task has finished; a session that answered before returning
    /// (``FinishedSessionTask``) takes no lock.
    func onCancel(cancelling sessionTask: any NetworkSessionTask) {
        guard type(of: sessionTask) != FinishedSessionTask.self else { return }
        run(state.withLock { $0.started(sessionTask) })
    }

    /// Delivers `outcome` (a WebSocket firing's end) unless the task already finished or was cancelled.
    /// - Returns: whether this outcome finished the task (`false` once it was finished or cancelled).
    @discardableResult
    func finish(with outcome: AttemptOutcome) -> Bool {
        finish(with: Outcome(outcome))
    }

    /// Delivers `outcome` unless the task already finished or was cancelled.
    /// - Returns: whether this outcome finished the task (`false` once it was finished or cancelled).
    @discardableResult
    func finish(with outcome: consuming Outcome) -> Bool {
        let (action, isFirst) = state.withLock { state in
            let wasFinished = state.isFinished
            return (state.finish(copy outcome), !wasFinished)
        }
        run(action)
        return isFirst
    }

    /// The outcome of an awaiting firing (``FiringFunction/Channel/awaiting()``), as one `Result`:
    /// taken at once when it is ready (a mock's answer), otherwise awaited; cancelling the Swift
    /// task cancels this one.
    nonisolated(nonsending)
    func outcome() async -> Result<NetworkResponse, NetworkError> {
        if let ready = state.withLock({ $0.takeOutcome() }) { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                run(state.withLock { $0.awaited(continuation) })
            }
        } onCancel: {
            cancel()
        }
    }

    /// Returns once the outcome was delivered: after the responder's handlers and its completion
    /// ran on the callback queue (or the result closure ran, or the awaiting caller was resumed).
    /// For code that fired a call it knows only as `any Fireable` and waits for its end, such as
    /// ``RefreshGroup``; it does not take the outcome, which still goes to the channel.
    ///
    /// Asked after the task finished, it returns behind what the task queued on its callback
    /// queue (a serial queue keeps that order); on ``CallbackQueue/immediate`` it returns at once.
    /// Cancelling the Swift task does not cancel the firing (``cancel()`` does).
    func delivered() async {
        await withCheckedContinuation { continuation in
            run(state.withLock { $0.awaitedDelivery(continuation) })
        }
    }

    // MARK: - Actions, run outside the lock

    private func run(_ action: consuming State.Action) {
        switch consume action {
        case .none, .send:
            break
        case .report(let head, let chunk, let transferProgress):
            if let bodyReceiver = channel.bodyReceiver {
                if let head { bodyReceiver.receive(head) }
                if let chunk { bodyReceiver.receive(chunk) }
            }
            if let transferProgress { progress?.report(transferProgress) }
        case .release(let head, let kept):
            release(head, kept)
        case .cancelExchange(let sessionTask):
            sessionTask.cancel()
        case .retry(_, let exchange):
            exchange?.cancel()
        case .handOn(let loop, let outcome):
            loop.resume(returning: outcome)
        case .resume(let waiter, let outcome):
            waiter.resume(returning: outcome)
        case .resumeBehindDelivery(let waiter):
            // The outcome is delivered or queued for delivery: resume behind it.
            if case .responder(_, let queue, _) = channel.destination {
                queue.run { waiter.resume() }
            } else {
                waiter.resume()
            }
        case .finish(let outcome, let stopping, let hasStreamedHead, let waiter, let transferProgress, let delivering):
            if let transferProgress { progress?.report(transferProgress) }
            finish(outcome, hasStreamedHead: hasStreamedHead, resuming: waiter, then: delivering)
            stopping.forEach { $0.cancel() }
        }
    }

    /// Lets the body of a head the actions let through reach the body receiver: the head, the
    /// chunks kept while the actions decided, then those that arrived meanwhile, until none is
    /// left and the state lets chunks through as they arrive. The lock is taken between the
    /// deliveries, never held across one, and no live chunk can overtake a kept one.
    private func release(_ head: ResponseHead?, _ kept: Data?) {
        if let bodyReceiver = channel.bodyReceiver {
            if let head { bodyReceiver.receive(head) }
            if let kept { bodyReceiver.receive(kept) }
        }
        var next = state.withLock { $0.released() }
        while case .release(_, let kept) = next {
            if let kept { channel.bodyReceiver?.receive(kept) }
            next = state.withLock { $0.released() }
        }
        run(next)
    }

    /// Ends the firing with `outcome`: 100 % progress, the body stream's end, the finish
    /// handlers, the destination, then whoever awaits ``delivered()``.
    private func finish(
        _ outcome: Outcome,
        hasStreamedHead: Bool,
        resuming waiter: State.Waiter?,
        then delivering: [State.DeliveryWaiter]
    ) {
        if let progress, outcome.failure == nil { progress.complete() }
        if let bodyReceiver = channel.bodyReceiver {
            if hasStreamedHead || outcome.failure != nil {
                bodyReceiver.finish(outcome.failure)
            } else {
                // A body that arrived whole reaches the stream as the whole exchange.
                bodyReceiver.finish(with: outcome.head, body: outcome.data ?? Data(), error: nil)
            }
        }
        if !channel.finishHandlers.isEmpty {
            for handler in channel.finishHandlers { handler(outcome.failure) }
        }
        switch channel.destination {
        case .awaiting:
            if let waiter {
                // The caller's `Result` is made here, outside the lock.
                waiter.resume(returning: Self.reported(outcome))
            } else if !channel.finishHandlers.isEmpty {
                // Held back until the finish handlers ran: now the caller may take it.
                run(state.withLock { $0.handled(outcome) })
            }
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
                    delivering.forEach { $0.resume() }
                }
                return
            }
        case .bodyStream:
            break
        }
        delivering.forEach { $0.resume() }
    }

    /// `outcome` as one `Result`: the body with the head and metrics it came with, or the error.
    static func reported(_ outcome: borrowing Outcome) -> Result<NetworkResponse, NetworkError> {
        if let failure = outcome.failure { return .failure(failure) }
        return .success(NetworkResponse(data: outcome.data ?? Data(), head: outcome.head, metrics: outcome.metrics))
    }

    /// Why an exchange of `request` failed: a file of the body that changed while it was sent,
    /// named, rather than the transport's "aborted" that it causes.
    static func failure(_ error: any Error, of request: URLRequest?) -> NetworkError {
        if let stream = request?.httpBodyStream as? BodyStream, let reason = stream.failure {
            return .invalidRequest(RequestProblem(.body, reason))
        }
        return NetworkError(error, requestURL: request?.url)
    }

    /// The codes a transport reports when the server closed the connection: URLSession's
    /// (`badServerResponse` on Linux when not a byte came back) and another transport's.
    static let hangUpCodes: Set<URLError.Code> = [.badServerResponse, .networkConnectionLost, .zeroByteResource]

    /// `failure` telling what of the answer had arrived, for its description: the status of a
    /// head that came before a body stalled or dropped, or that the server hung up before a byte.
    static func telling(_ failure: NetworkError, head: ResponseHead?, received: Int64) -> NetworkError {
        guard case .transport(let error) = failure else { return failure }
        if let head, head.isHTTP {
            return .transport(error.adding(head.statusCode, forKey: URLError.receivedStatusCodeKey))
        }
        if head == nil, received == 0, hangUpCodes.contains(error.code) {
            return .transport(error.adding(true, forKey: URLError.closedWithoutAnswerKey))
        }
        return failure
    }

    /// The request body's length, where it is known without reading it.
    static func bodyLength(of request: URLRequest?) -> Int64? {
        if let body = request?.httpBody { return Int64(body.count) }
        return (request?.httpBodyStream as? BodyStream)?.length
    }
}

// MARK: - What a session reports

/// A session reports the call's only attempt straight to its task, each report once: the task
/// is the exchange's receiver, so nothing sits between the two. (The attempt loop's attempts
/// report through an `AttemptReceiver` each.)
@_spi(Transport) extension NetworkTask: ResponseReceiver {
    /// Receives the response head.
    @_spi(Transport) public func receive(_ head: ResponseHead) {
        run(state.withLock { $0.received(head, attempt: 1) })
    }

    /// Receives the next chunk of the body.
    @_spi(Transport) public func receive(_ chunk: Data) {
        run(state.withLock { $0.received(chunk, attempt: 1) })
    }

    /// Receives upload progress.
    @_spi(Transport) public func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
        run(state.withLock { $0.sent(bytesSent, of: bytesExpected, attempt: 1) })
    }

    /// Hears that the session followed a redirect.
    @_spi(Transport) public func didFollowRedirect() {
        state.withLock { $0.redirected(attempt: 1) }
    }

    /// Receives a task's metrics.
    @_spi(Transport) public func didCollect(_ taskMetrics: URLSessionTaskMetrics) {
        state.withLock { $0.collected(taskMetrics, attempt: 1) }
    }

    /// Ends the exchange.
    @_spi(Transport) public func finish(_ error: (any Error)?) {
        run(state.withLock { $0.ended(nil, nil, error, attempt: 1) })
    }

    /// Receives the whole exchange and ends it, in one step.
    @_spi(Transport) public func finish(with head: ResponseHead?, body: Data?, error: (any Error)?) {
        run(state.withLock { $0.ended(head, body, error, attempt: 1) })
    }
}

// MARK: - The attempt loop

extension NetworkTask {
    /// Starts attempt `attempt` of the attempt loop with `request` as the actions prepared it:
    /// sends it through `session` unless an action refused it (`refusal`, which becomes the
    /// attempt's outcome) or the task has finished. The outcome follows from ``nextOutcome()``.
    func start(
        _ attempt: Int,
        of request: URLRequest,
        refusedWith refusal: NetworkError?,
        measuring meter: AttemptMeter?,
        through session: any NetworkSession,
        options: ExchangeOptions
    ) {
        let action = state.withLock { $0.start(attempt, of: request, refusedWith: refusal, meter: meter) }
        guard case .send = action else { return run(action) }
        let sessionTask = session.start(request, options: options, receiver: AttemptReceiver(for: self, attempt: attempt))
        // A session that answered before returning (mock firing) left nothing to stop.
        guard type(of: sessionTask) != FinishedSessionTask.self else { return }
        run(state.withLock { $0.started(sessionTask, attempt: attempt) })
    }

    /// What the attempt the loop started handed on: a streamed head, or the attempt's end. Once
    /// the task was cancelled, the attempt as ``NetworkError/cancelled``: the actions still see
    /// it (a logging or metrics action counts the cancelled call), and their decision changes nothing.
    func nextOutcome() async -> AttemptOutcome {
        await withCheckedContinuation { continuation in
            run(state.withLock { $0.awaitedOutcome(continuation) })
        }
    }

    /// Tells the task what the actions decided on the outcome ``nextOutcome()`` handed on.
    /// - Returns: the seconds to wait before the next attempt when the decision is to retry and
    ///   the task still runs; `nil` when the loop is done.
    func decided(_ decision: State.Decision) -> TimeInterval? {
        let action = state.withLock { $0.decided(decision) }
        var delay: TimeInterval?
        if case .retry(let after, _) = action { delay = after }
        run(action)
        return delay
    }

    /// The receiver of one attempt of the attempt loop: forwards each report to the task tagged
    /// with its attempt, so that a late report of an attempt the loop has left behind (a retried
    /// exchange still ending) is dropped; holds nothing else. The whole exchange at once reaches
    /// the task through `ResponseReceiver`'s one expansion (head, body, end), so the actions see
    /// a streamed head before its body as with any other session.
    private final class AttemptReceiver: ResponseReceiver {
        private let task: NetworkTask
        private let attempt: Int

        init(for task: NetworkTask, attempt: Int) {
            self.task = task
            self.attempt = attempt
        }

        func receive(_ head: ResponseHead) {
            task.run(task.state.withLock { $0.received(head, attempt: attempt) })
        }

        func receive(_ chunk: Data) {
            task.run(task.state.withLock { $0.received(chunk, attempt: attempt) })
        }

        func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
            task.run(task.state.withLock { $0.sent(bytesSent, of: bytesExpected, attempt: attempt) })
        }

        func didFollowRedirect() {
            task.state.withLock { $0.redirected(attempt: attempt) }
        }

        func didCollect(_ taskMetrics: URLSessionTaskMetrics) {
            task.state.withLock { $0.collected(taskMetrics, attempt: attempt) }
        }

        func finish(_ error: (any Error)?) {
            task.run(task.state.withLock { $0.ended(nil, nil, error, attempt: attempt) })
        }
    }
}

// MARK: - The state

extension NetworkTask {
    /// The firing's state as a value: each event (start, head, chunk, end, the actions' decision,
    /// cancel, …) is a mutating method that returns the ``Action`` to run once the lock is
    /// released, as async-http-client's `Transaction.StateMachine` does. No I/O and no callbacks
    /// happen here.
    ///
    /// One method per event rather than one `handle(_:)` taking an event enum: the enum holds
    /// `Data`, whose layout is resilient, so every event was made, switched on and destroyed through
    /// the runtime (585 instructions per firing of mock `fire()`, measured in Docs/Performance.md).
    ///
    /// A session's reports carry the attempt they belong to: the call's only attempt (a call
    /// without actions) is attempt 1 and reports to the task itself; each attempt of the attempt
    /// loop reports through its own `AttemptReceiver`. A report of any other attempt than the
    /// running one, or of one that ended, changes nothing.
    struct State {
        /// The awaiting caller, parked until the outcome is made.
        typealias Waiter = CheckedContinuation<Result<NetworkResponse, NetworkError>, Never>
        /// A caller of ``NetworkTask/delivered()``, parked until the outcome was delivered.
        typealias DeliveryWaiter = CheckedContinuation<Void, Never>
        /// The attempt loop, parked in ``NetworkTask/nextOutcome()``.
        typealias LoopWaiter = CheckedContinuation<AttemptOutcome, Never>

        /// Where the running attempt's body goes.
        enum Phase {
            /// Collected, to go out whole (or to the attempt loop's actions).
            case collecting
            /// A streamed 2xx head is with the attempt loop's actions: chunks are kept meanwhile.
            case awaitingDecision
            /// The actions let the head through: the kept chunks go to the body receiver, and
            /// chunks arriving meanwhile queue behind them.
            case releasing
            /// Chunks go to the body receiver as they arrive.
            case streaming
            /// The attempt ended: its outcome is with the actions, or the loop backs off before
            /// the next attempt. Its reports are dropped.
            case ended
        }

        /// What the attempt loop's actions decided on the outcome they were handed.
        enum Decision {
            /// Finish the firing with the attempt's outcome and this error (an action's `.fail`,
            /// or the transport's); `nil` classifies the head as usual.
            case deliver(NetworkError?)
            /// Let a streamed head's body through: the kept chunks, then the rest; the end of
            /// the exchange finishes the firing.
            case streamBody
            /// Leave this attempt (stopping its exchange) and start another after `after` seconds.
            case retry(after: TimeInterval)
        }

        enum Action {
            case none
            /// A streamed body's head or chunk for the body receiver, and progress to report.
            case report(head: ResponseHead?, chunk: Data?, progress: TransferProgress?)
            /// Deliver a decided head and the chunks kept so far to the body receiver, then drain
            /// the chunks that arrived meanwhile (``released()``).
            case release(head: ResponseHead?, kept: Data?)
            /// The attempt loop may send its attempt (``start(_:of:refusedWith:meter:)``).
            case send
            case cancelExchange(any NetworkSessionTask)
            /// The loop waits `after` seconds, then starts the next attempt; stop the left one's exchange.
            case retry(after: TimeInterval, stopping: (any NetworkSessionTask)?)
            /// Resume the attempt loop with what its attempt handed on.
            indirect case handOn(LoopWaiter, AttemptOutcome)
            case resume(Waiter, Result<NetworkResponse, NetworkError>)
            /// Resume a caller of ``NetworkTask/delivered()`` behind the delivery already made or queued.
            case resumeBehindDelivery(DeliveryWaiter)
            /// End the firing with the outcome; stop what is still running; `hasStreamedHead`
            /// says the body receiver has had the head; the awaiting caller, if parked, to resume
            /// with the outcome (a waiter alone: an optional `Result` would be copied and destroyed
            /// through its value witness on every firing); the download progress of a body that
            /// arrived whole.
            case finish(
                Outcome,
                stopping: [any NetworkSessionTask],
                hasStreamedHead: Bool,
                resuming: Waiter?,
                progress: TransferProgress? = nil,
                delivering: [DeliveryWaiter] = []
            )
        }

        /// What only a call with actions keeps: the attempt loop's side.
        ///
        /// A reference rather than a value, so that a call without actions carries one `nil`
        /// pointer: as an optional value (its outcomes hold `Data` and `URLRequest`, whose layouts
        /// are resilient) it made every firing's state larger to make and move, and its
        /// emptiness was tested and destroyed through value witnesses (+1,100 instructions per
        /// mock firing, measured in Docs/Performance.md). It is reached only through the state,
        /// under the task's lock, like the rest of the state.
        final class Loop {
            /// The loop, parked until the attempt hands something on.
            var waiter: LoopWaiter?
            /// What the attempt handed on before the loop asked for it.
            var handedOn: AttemptOutcome?
            /// The outcome the actions decide on: the head, a collected body, the transport's
            /// failure (unclassified), the metrics so far.
            var deciding: Outcome?
            /// The end of a streamed exchange that came while its head was with the actions or
            /// its kept chunks were draining: it finishes the firing after them.
            var streamEnd: Outcome?
            /// The metrics of the attempts before the running one.
            var earlierMetrics: [AttemptMetrics] = []
            /// The running attempt's exchange, stopped when the loop leaves it.
            var exchange: (any NetworkSessionTask)?
            /// When the running attempt was sent, for its outcome's duration.
            var sentAt: UInt64 = 0
        }

        /// The running attempt's request: the only attempt's, or the one the actions prepared.
        private var request: URLRequest?
        let streamsBody: Bool
        /// Whether the attempts' reports make progress.
        let reportsProgress: Bool
        /// Whether the outcome waits for ``NetworkTask/outcome()`` rather than going to a destination.
        let parksOutcome: Bool
        /// Whether the outcome reaches the awaiting caller only after the finish handlers ran.
        let handsOverAfterHandlers: Bool
        private(set) var isFinished = false
        private(set) var isCancelled = false
        private var cancellables: [any NetworkSessionTask] = []
        /// The attempt whose reports count.
        private var attempt = 1
        private var phase = Phase.collecting
        private var head: ResponseHead?
        /// The collected body, or the chunks kept while the actions decide.
        private var body: Data?
        /// Body bytes received, for progress.
        private var received: Int64 = 0
        /// The body's length the head announced, for progress.
        private var expected: Int64?
        private var meter: AttemptMeter?
        private var waiter: Waiter?
        /// The callers of ``NetworkTask/delivered()`` that came before the outcome was made.
        private var deliveryWaiters: [DeliveryWaiter] = []
        /// The outcome made before the awaiting caller asked for it, as the caller takes it.
        private var unclaimed: Result<NetworkResponse, NetworkError>?
        /// The attempt loop's side; `nil` for a call without actions.
        private var loop: Loop?

        init(
            request: URLRequest?,
            streamsBody: Bool,
            reportsProgress: Bool,
            parksOutcome: Bool,
            handsOverAfterHandlers: Bool,
            meter: AttemptMeter?
        ) {
            self.request = request
            self.streamsBody = streamsBody
            self.reportsProgress = reportsProgress
            self.parksOutcome = parksOutcome
            self.handsOverAfterHandlers = handsOverAfterHandlers
            self.meter = meter
            if request == nil {
                // The attempt loop sends the attempts (or nothing is sent): none runs until it starts one.
                loop = Loop()
                phase = .ended
            }
        }

        /// The outcome, if it was made and nobody has taken it.
        mutating func takeOutcome() -> Result<NetworkResponse, NetworkError>? { unclaimed.take() }

        // MARK: Events

        /// The awaiting caller parks until the outcome is made; resumed at once if it was.
        mutating func awaited(_ continuation: Waiter) -> Action {
            if let unclaimed = unclaimed.take() { return .resume(continuation, unclaimed) }
            waiter = continuation
            return .none
        }

        /// A caller waits for the outcome's delivery (``NetworkTask/delivered()``).
        mutating func awaitedDelivery(_ continuation: DeliveryWaiter) -> Action {
            guard isFinished else {
                deliveryWaiters.append(continuation)
                return .none
            }
            return .resumeBehindDelivery(continuation)
        }

        /// The finish handlers ran: the outcome may reach the awaiting caller.
        mutating func handled(_ outcome: borrowing Outcome) -> Action {
            let reported = NetworkTask.reported(outcome)
            if let waiter = waiter.take() { return .resume(waiter, reported) }
            unclaimed = reported
            return .none
        }

        /// The task was cancelled: it finishes with ``NetworkError/cancelled`` unless it had
        /// finished, stopping the exchange, the attempt loop and its backoff.
        mutating func cancel() -> Action {
            guard !isFinished else { return .none }
            isCancelled = true
            return finished(Outcome(failure: .cancelled))
        }

        /// A session task started; kept to cancel.
        mutating func started(_ sessionTask: any NetworkSessionTask) -> Action {
            if isCancelled { return .cancelExchange(sessionTask) }
            if !isFinished { cancellables.append(sessionTask) }
            return .none
        }

        /// A request that could not be built, or an outcome made elsewhere (a WebSocket's).
        mutating func finish(_ outcome: consuming Outcome) -> Action {
            guard !isFinished else { return .none }
            return finished(outcome)
        }

        /// Upload progress.
        mutating func sent(_ bytesSent: Int64, of bytesExpected: Int64?, attempt: Int) -> Action {
            guard !isFinished, attempt == self.attempt else { return .none }
            if case .ended = phase { return .none }
            meter?.sent(bytesSent)
            guard reportsProgress else { return .none }
            // A streamed body sent chunked (Linux sends no Content-Length for a stream) still has
            // a known size: the stream's own.
            let expected = bytesExpected ?? (request?.httpBodyStream as? BodyStream)?.length
            return .report(head: nil, chunk: nil, progress: TransferProgress(direction: .upload, completedBytes: bytesSent, expectedBytes: expected))
        }

        /// The session followed a redirect: measured, nothing to run.
        mutating func redirected(attempt: Int) {
            if !isFinished, attempt == self.attempt { meter?.followedRedirect() }
        }

        /// The session's metrics of the exchange: measured, nothing to run.
        mutating func collected(_ taskMetrics: URLSessionTaskMetrics, attempt: Int) {
            if !isFinished, attempt == self.attempt { meter?.collected(taskMetrics) }
        }

        /// The head of the exchange while the firing runs.
        mutating func received(_ head: ResponseHead, attempt: Int) -> Action {
            guard !isFinished, attempt == self.attempt else { return .none }
            if case .ended = phase { return .none }
            if meter != nil {
                let bodyLength = NetworkTask.bodyLength(of: request)
                meter?.headArrived(requestBodyLength: bodyLength, cacheStatus: head.cacheStatus)
            }
            if reportsProgress { expected = head.expectedContentLength }
            self.head = head
            guard streamsBody, head.isSuccess else { return .none }
            if loop != nil {
                // The actions decide on the head before a byte is streamed; chunks wait.
                phase = .awaitingDecision
                return handOn(head: head, data: nil, failure: nil, metrics: meter.map { [$0.metrics] } ?? [], isStreamedHead: true)
            }
            phase = .streaming
            return .report(head: head, chunk: nil, progress: nil)
        }

        /// A chunk of the body while the firing runs.
        mutating func received(_ chunk: Data, attempt: Int) -> Action {
            guard !isFinished, attempt == self.attempt else { return .none }
            if case .ended = phase { return .none }
            received += Int64(chunk.count)
            meter?.received(chunk.count)
            let progress = reportsProgress
                ? TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected) : nil
            if case .streaming = phase { return .report(head: nil, chunk: chunk, progress: progress) }
            if body == nil { body = chunk } else { body?.append(chunk) }
            return progress.map { .report(head: nil, chunk: nil, progress: $0) } ?? .none
        }

        /// The end of the exchange: the whole exchange at once when `wholeHead` is given (never
        /// for an attempt of the loop: its `AttemptReceiver` passes the whole exchange on as its
        /// parts, so the actions see a streamed head before its body).
        mutating func ended(_ wholeHead: ResponseHead?, _ wholeBody: Data?, _ error: (any Error)?, attempt: Int) -> Action {
            guard !isFinished, attempt == self.attempt else { return .none }
            if case .ended = phase { return .none }
            let failure = error.map { NetworkTask.failure($0, of: request) }
            if loop != nil {
                assert(wholeHead == nil, "an attempt of the loop reports the whole exchange as its parts")
                return attemptEnded(failure)
            }
            var isStreamed = false
            if case .streaming = phase { isStreamed = true }
            var progress: TransferProgress?
            let head: ResponseHead?
            let body: Data?
            if let wholeHead {
                // The whole exchange at once: made into the outcome without passing through the state.
                if meter != nil {
                    let bodyLength = NetworkTask.bodyLength(of: request)
                    meter?.headArrived(requestBodyLength: bodyLength, cacheStatus: wholeHead.cacheStatus)
                    if let wholeBody { meter?.received(wholeBody.count) }
                }
                if reportsProgress, let wholeBody, !wholeBody.isEmpty {
                    progress = TransferProgress(direction: .download, completedBytes: Int64(wholeBody.count), expectedBytes: wholeHead.expectedContentLength)
                }
                head = wholeHead
                body = isStreamed ? nil : (wholeBody ?? Data())
            } else {
                head = self.head.take()
                body = isStreamed ? nil : (self.body.take() ?? (head == nil ? nil : Data()))
            }
            // Classified once, here: a status outside 200–299 is the failure every destination reads.
            let classified = failure.map { NetworkTask.telling($0, head: head, received: received) }
                ?? Self.statusFailure(of: head, body: body)
            let metrics = endedMetrics()
            // Made in the call, not in a variable first: the variable was copied once more on its
            // way into the action and destroyed once more (about 250 instructions per firing).
            return finished(Outcome(head: head, data: body, failure: classified, metrics: metrics), progress: progress)
        }

        // MARK: Events of the attempt loop

        /// The loop starts attempt `attempt` with `request` as the actions prepared it, or with
        /// an action's refusal to send it, which becomes the attempt's outcome at once.
        mutating func start(_ attempt: Int, of request: URLRequest, refusedWith refusal: NetworkError?, meter: AttemptMeter?) -> Action {
            // Kept even once the task finished: the cancelled attempt the loop is handed names it.
            self.request = request
            guard !isFinished else { return .none }
            self.attempt = attempt
            self.meter = meter
            head = nil
            body = nil
            received = 0
            expected = nil
            loop?.sentAt = DispatchTime.now().uptimeNanoseconds
            loop?.exchange = nil
            loop?.streamEnd = nil
            guard let refusal else {
                phase = .collecting
                return .send
            }
            phase = .ended
            return handOn(head: nil, data: nil, failure: refusal, metrics: [], isSent: false)
        }

        /// The attempt's exchange started: kept, to stop when the loop leaves the attempt.
        mutating func started(_ sessionTask: any NetworkSessionTask, attempt: Int) -> Action {
            if isCancelled { return .cancelExchange(sessionTask) }
            if !isFinished, attempt == self.attempt { loop?.exchange = sessionTask }
            return .none
        }

        /// The loop asks for what its attempt hands on; parks until there is something.
        mutating func awaitedOutcome(_ continuation: LoopWaiter) -> Action {
            if isFinished { return .handOn(continuation, cancelledAttempt()) }
            if let ready = loop?.handedOn.take() { return .handOn(continuation, ready) }
            loop?.waiter = continuation
            return .none
        }

        /// The actions decided on the outcome the loop was handed.
        mutating func decided(_ decision: Decision) -> Action {
            guard !isFinished, let deciding = loop?.deciding.take() else { return .none }
            switch decision {
            case .retry(let delay):
                phase = .ended
                head = nil
                body = nil
                loop?.earlierMetrics = deciding.metrics
                return .retry(after: delay, stopping: loop?.exchange.take())
            case .streamBody:
                guard case .awaitingDecision = phase else { return .none }
                phase = .releasing
                return .release(head: head, kept: body.take())
            case .deliver(let error):
                // A refused streamed head's body is not wanted: its exchange stops (in `finished`).
                let failure = error ?? Self.statusFailure(of: deciding.head, body: deciding.data)
                return finished(Outcome(head: deciding.head, data: deciding.data, failure: failure, metrics: deciding.metrics))
            }
        }

        /// The releasing thread delivered what it was given: more kept chunks to deliver, the
        /// end that came meanwhile, or nothing, when chunks go out as they arrive from now on.
        mutating func released() -> Action {
            guard !isFinished, case .releasing = phase else { return .none }
            if let kept = body.take() { return .release(head: nil, kept: kept) }
            phase = .streaming
            guard let end = loop?.streamEnd.take() else { return .none }
            return finished(end)
        }

        /// The end of an attempt of the loop: a collected outcome goes to the actions; a streamed
        /// body's end finishes the firing, once its kept chunks went out.
        private mutating func attemptEnded(_ failure: NetworkError?) -> Action {
            let failure = failure.map { NetworkTask.telling($0, head: head, received: received) }
            let measured = endedMetrics()
            switch phase {
            case .streaming, .awaitingDecision, .releasing:
                let end = Outcome(head: head, data: nil, failure: failure, metrics: (loop?.earlierMetrics ?? []) + measured)
                guard case .streaming = phase else {
                    loop?.streamEnd = end
                    return .none
                }
                return finished(end)
            case .collecting, .ended:
                phase = .ended
                let body = body.take() ?? (head == nil ? nil : Data())
                return handOn(head: head.take(), data: body, failure: failure, metrics: measured)
            }
        }

        /// Hands what the attempt produced to the loop (resumed, if parked) and keeps it for the
        /// decision; `metrics` are this attempt's, put after the earlier attempts'.
        private mutating func handOn(
            head: ResponseHead?,
            data: Data?,
            failure: NetworkError?,
            metrics: [AttemptMetrics],
            isStreamedHead: Bool = false,
            isSent: Bool = true
        ) -> Action {
            let metrics = (loop?.earlierMetrics ?? []) + metrics
            loop?.deciding = Outcome(head: head, data: data, failure: failure, metrics: metrics)
            var outcome = AttemptOutcome(request: request, head: head, data: data, error: failure)
            if isSent, let sentAt = loop?.sentAt {
                outcome.duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - sentAt) / 1_000_000_000
            }
            outcome.isStreamedHead = isStreamedHead
            outcome.metrics = metrics
            if let waiter = loop?.waiter.take() { return .handOn(waiter, outcome) }
            loop?.handedOn = outcome
            return .none
        }

        /// The running attempt as the cancel left it, for the loop's actions to see: metrics
        /// ended, after the earlier attempts'.
        private mutating func cancelledAttempt() -> AttemptOutcome {
            var outcome = AttemptOutcome(request: request, head: nil, error: .cancelled)
            let measured = endedMetrics()
            outcome.metrics = (loop?.earlierMetrics ?? []) + measured
            return outcome
        }

        /// The running attempt's metrics, its meter ended; none when the server collects none.
        /// (This and `statusFailure(of:body:)` run at every firing's end: as calls they cost 15
        /// instructions per mock firing, measured in `Benchmarks/`, so they are inlined.)
        @inline(__always) private mutating func endedMetrics() -> [AttemptMetrics] {
            if meter != nil, let ended = meter?.ended() { [ended] } else { [] }
        }

        /// The failure a head's status outside 200–299 is, with its body; `nil` for a 2xx or no head.
        /// (The status is read as stored, not through `ResponseHead.isSuccess`: one less trip out
        /// of this file and back for every firing.)
        @inline(__always) private static func statusFailure(of head: ResponseHead?, body: Data?) -> NetworkError? {
            head.flatMap { (200..<300).contains($0.statusCode) ? nil : .serverStatus(ResponseProblem(head: $0, body: body)) }
        }

        /// Finishes the firing with `outcome`: it goes to the parked caller, waits for one, or to
        /// the destination; an attempt loop still parked, or an exchange still running for it, stops.
        private mutating func finished(_ outcome: consuming Outcome, progress: TransferProgress? = nil) -> Action {
            isFinished = true
            var stopping = isCancelled ? cancellables : []
            cancellables = []
            let hasStreamedHead = phase == .streaming || phase == .releasing
            if let loop {
                // A refused streamed head's body is not wanted; a cancel stops any exchange.
                if isCancelled || phase == .awaitingDecision, let exchange = loop.exchange.take() { stopping.append(exchange) }
                if let loopWaiter = loop.waiter.take() {
                    // Only a cancel finishes the task while the loop waits for its attempt.
                    let cancelled = cancelledAttempt()
                    stopping.append(CancelHandler { loopWaiter.resume(returning: cancelled) })
                }
            }
            var resuming: Waiter?
            if parksOutcome, !handsOverAfterHandlers {
                if let waiter = waiter.take() { resuming = waiter } else { unclaimed = NetworkTask.reported(outcome) }
            }
            let delivering = deliveryWaiters
            deliveryWaiters = []
            return .finish(outcome, stopping: stopping, hasStreamedHead: hasStreamedHead, resuming: resuming, progress: progress, delivering: delivering)
        }
    }
}

extension NetworkTask {
    /// How the firing ended, classified once where it is made: every destination (the responder's
    /// dispatch, the awaiting caller, the stream's end, the finish handlers) reads ``failure``
    /// rather than classifying the head again. An ``AttemptOutcome`` is made only where an action
    /// reads one (the attempt loop).
    ///
    /// Made with its memberwise initializer: an initializer of its own that assigns each property
    /// was inlined as a copy of the whole outcome and a destroy of its parts (`Data`'s layout is
    /// resilient, so both run through value witnesses: 440 instructions per firing of mock `fire()`).
    struct Outcome: Sendable {
        /// The response head, `nil` when none arrived.
        var head: ResponseHead?
        /// The body received whole, if any; `nil` for a body that went to a stream.
        var data: Data?
        /// Why the firing failed: the transport's error, cancellation, an action's refusal, or
        /// ``NetworkError/serverStatus(_:)`` for a status outside 200–299; `nil` on success.
        var failure: NetworkError?
        /// What each attempt measured, when the server collects metrics.
        var metrics: [AttemptMetrics] = []
    }
}

extension NetworkTask.Outcome {
    /// The outcome an attempt loop's actions settled on, classified.
    init(_ outcome: AttemptOutcome) {
        let failure: NetworkError? = if case .failure(let error) = outcome.result { error } else { nil }
        self.init(head: outcome.head, data: outcome.data, failure: failure, metrics: outcome.metrics)
    }
}

/// A cancel handler stored as a session task, so that handlers and session tasks share one list.
private struct CancelHandler: NetworkSessionTask {
    let run: @Sendable () -> Void

    func cancel() { run() }
}
