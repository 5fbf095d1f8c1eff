import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a call is fired: the swappable piece of every ``NetCall``.
///
/// Production firing sends through a ``NetworkSession``; mock firing answers from canned data; both
/// run the call's actions and hand the outcome to the ``Channel`` the way of firing chose
/// (the responder for `fire()`, the awaiting caller for `value()`, the stream for `bytes()`).
///
/// ```swift
/// call.firingFunction = .production                      // URLSession.shared
/// call.firingFunction = .session(myConfiguredURLSession) // any NetworkSession
/// call.firingFunction = FiringFunction { call, channel in // your own, wrapping another
///     FiringFunction.production(call, channel)
/// }
/// ```
public struct FiringFunction: Sendable {
    private let body: @Sendable (NetCall, consuming Channel) -> NetworkTask

    /// A firing function from a closure that starts the call, hands its outcome to the channel,
    /// and returns its task.
    public init(_ body: @escaping @Sendable (NetCall, consuming Channel) -> NetworkTask) {
        self.body = body
    }

    /// Fires `call`, handing its outcome to `channel`.
    public func callAsFunction(_ call: NetCall, _ channel: consuming Channel) -> NetworkTask {
        body(call, channel)
    }

    /// Fires through `URLSession.shared`.
    public static var production: FiringFunction { .session(URLSession.shared) }

    /// Fires through `session`: builds the request, runs the actions, sends it, and dispatches the outcome.
    ///
    /// - Parameters:
    ///   - session: what sends the request.
    ///   - clock: what waits before a retry an action asked for; ``NetworkClock/live`` by default.
    public static func session(_ session: any NetworkSession, clock: NetworkClock = .live) -> FiringFunction {
        FiringFunction { call, channel in fire(call, through: session, clock: clock, reportingTo: channel) }
    }

    /// The one firing path, top-down: build the request, make the task, and send the request
    /// through `session`, reporting to the task; with actions, the attempt loop runs them around
    /// each attempt and finishes the task. The task hands the outcome to `channel`.
    ///
    /// Without actions (or with none active) the path is synchronous up to the session, so a
    /// session that answers at once (mock firing) costs no thread hop, and the session reports
    /// straight to the task, which exists before the session is asked.
    static func fire(
        _ call: NetCall,
        through session: any NetworkSession,
        clock: NetworkClock = .live,
        reportingTo channel: consuming FiringFunction.Channel
    ) -> NetworkTask {
        // Read before the channel moves into the task.
        let taskHandler = channel.taskHandler.map { (handler: $0, queue: channel.queue) }
        let options = channel.bodyReceiver != nil || channel.progressHandler != nil ? Self.readingAsItArrives : Self.readingWhole
        let server = call.server
        let request: URLRequest
        do {
            request = try call.urlRequest()
        } catch {
            let task = NetworkTask(reportingTo: channel, decoder: server.decoder, clock: clock)
            task.finish(with: NetworkTask.Outcome(failure: error))
            return task
        }
        let actions = server.actions.isEmpty && call.actions.isEmpty
            ? [] : (server.actions + call.actions).active(for: call)
        guard actions.isEmpty else {
            let task = NetworkTask(reportingTo: channel, decoder: server.decoder, clock: clock)
            taskHandler.map { $0.queue.run($0.handler, with: task) }
            let work = Task { await attempts(of: call, request, with: actions, through: session, clock: clock, for: task) }
            // Cancelling the task stops the loop where it waits: an action, or the backoff.
            task.onCancel { work.cancel() }
            return task
        }
        let task = NetworkTask(
            reportingTo: channel, decoder: server.decoder, clock: clock, receiving: request,
            collectsMetrics: server.collectsMetrics
        )
        // Only a handler somebody set is handed to the queue: on `.main` that is a thread hop.
        // Until the task is handed to a handler (or returned), nothing can cancel it.
        if let taskHandler {
            taskHandler.queue.run(taskHandler.handler, with: task)
            if task.isCancelled { return task }
        }
        let sessionTask = session.start(request, options: options, receiver: task)
        // A session that answered before returning (mock firing) left nothing to cancel.
        if type(of: sessionTask) != FinishedSessionTask.self { task.onCancel(cancelling: sessionTask) }
        return task
    }

    /// The attempt loop of a call with actions, top-down: for each attempt the actions prepare
    /// the request (in list order), the task starts the attempt, the loop awaits what the attempt
    /// hands on (a streamed head, or its end), the actions decide on it (in reverse: the last
    /// action is closest to the wire, so it sees the request as sent and every attempt's response
    /// before any other action can retry or fail it), and the task hears the decision: finish,
    /// stream the body, or back off and try again.
    ///
    /// A streamed call is decided on its head: once actions let a 2xx head through, its body
    /// reaches the stream as it arrives and the exchange's end finishes the call; it is never
    /// retried, since a retry would deliver the body again. A head outside 2xx is collected
    /// whole and decided like any other outcome, so refresh and retry work before a byte is streamed.
    private static func attempts(
        of call: NetCall,
        _ request: URLRequest,
        with actions: [any NetworkAction],
        through session: any NetworkSession,
        clock: NetworkClock,
        for task: NetworkTask
    ) async {
        let options = ExchangeOptions(
            readsBodyAsItArrives: task.streamsBody || task.reportsProgress,
            credentialHeaders: AuthTokenAction.headers(setBy: actions)
        )
        let collectsMetrics = call.server.collectsMetrics
        var attempt = 1
        while !task.isFinished {
            let (prepared, refusal) = await call.prepare(request, with: actions)
            task.start(
                attempt, of: prepared, refusedWith: refusal,
                measuring: collectsMetrics ? AttemptMeter(attempt: attempt, clock: clock) : nil,
                through: session, options: options
            )
            var outcome = await task.nextOutcome()
            let decision: NetworkTask.State.Decision =
                if let delay = await call.decide(&outcome, with: actions, attempt: attempt) {
                    .retry(after: delay)
                } else if outcome.isStreamedHead, outcome.error == nil {
                    .streamBody
                } else {
                    .deliver(outcome.error)
                }
            // Once the task finished (cancelled), whatever was decided changes nothing.
            guard let delay = task.decided(decision) else { return }
            // Returns early when the task is cancelled; the loop then ends.
            try? await clock.sleep(for: delay)
            attempt += 1
        }
    }

    /// What a session is told for a body read whole: made once.
    private static let readingWhole = ExchangeOptions()
    /// What a session is told for a body read as it arrives (a stream, progress): made once.
    private static let readingAsItArrives = ExchangeOptions(readsBodyAsItArrives: true)
}

extension FiringFunction {
    /// Where one firing's outcome goes: the way of firing tells the ``FiringFunction`` through it.
    ///
    /// Each way of firing has its own channel, so no entry point rewrites the call to get its result:
    /// - `fire()`, `fire { result in … }`, publishers: the call's responder on its callback queue
    ///   (and the one `Result` after it);
    /// - `value()`, `response()`: the awaiting caller, who takes the outcome from the task;
    /// - ``Transfer``, the pager and ``Refresher``: one `Result`, handed over where the outcome is
    ///   made, with no callback queue in between;
    /// - `bytes()`, `lines()`, `events()`, `download(to:)`: a body stream, which ends with the outcome;
    /// - `stream(to:)`: a body stream beside the call's responder.
    ///
    /// A custom firing function passes the channel on, and may watch the end with ``onFinish(_:)``:
    ///
    /// ```swift
    /// let logged = FiringFunction { call, channel in
    ///     FiringFunction.production(call, channel.onFinish { error in log(call.endpoint, error) })
    /// }
    /// ```
    public struct Channel: Sendable {
        /// Who receives the outcome once the body, if streamed, has ended.
        enum Destination: Sendable {
            /// The responder's handlers in their documented order on `queue`, then `completion` with
            /// the outcome as one `Result`.
            case responder(NetworkResponder, on: CallbackQueue, then: (@Sendable (Result<NetworkResponse, NetworkError>) -> Void)?)
            /// One `Result`, on whatever thread the outcome is made.
            case result(@Sendable (Result<NetworkResponse, NetworkError>) -> Void)
            /// The caller awaiting ``NetworkTask/outcome()``: the outcome waits in the task until taken.
            case awaiting
            /// Nobody beyond the body stream, whose end is the outcome.
            case bodyStream
        }

        let destination: Destination
        /// Where the body goes as it arrives; `nil` when the call reads it whole.
        let bodyReceiver: (any ResponseReceiver)?
        /// Who hears about upload and download progress (on ``queue``); `nil` when nobody asked.
        let progressHandler: (@Sendable (TransferProgress) -> Void)?
        /// The responder's task handler (run on ``queue``); `nil` when nobody set one.
        let taskHandler: (@Sendable (NetworkTask) -> Void)?
        /// What runs with the outcome's error (`nil` on success) before the destination receives it.
        private(set) var finishHandlers: [@Sendable (NetworkError?) -> Void] = []

        private init(
            _ destination: Destination,
            bodyReceiver: (any ResponseReceiver)? = nil,
            progressHandler: (@Sendable (TransferProgress) -> Void)? = nil,
            taskHandler: (@Sendable (NetworkTask) -> Void)? = nil
        ) {
            self.destination = destination
            self.bodyReceiver = bodyReceiver
            self.progressHandler = progressHandler
            self.taskHandler = taskHandler
        }

        /// Where the progress and task handlers run: the responder's queue; at once for the other destinations.
        var queue: CallbackQueue {
            guard case .responder(_, let queue, _) = destination else { return .immediate }
            return queue
        }

        /// The channel of `fire()`: `responder`'s handlers on `queue`, then `completion` if given;
        /// a body stream beside them when `bodyReceiver` is given.
        static func responder(
            _ responder: NetworkResponder,
            on queue: CallbackQueue,
            then completion: (@Sendable (Result<NetworkResponse, NetworkError>) -> Void)? = nil,
            streamingTo bodyReceiver: (any ResponseReceiver)? = nil
        ) -> Channel {
            // Read from the responder's box, not through its getters.
            let handlers = responder.box.handlers
            return Channel(
                .responder(responder, on: queue, then: completion),
                bodyReceiver: bodyReceiver,
                progressHandler: handlers.progressHandler,
                taskHandler: handlers.onTask
            )
        }

        /// The channel of the async API: the outcome as one `Result` where it is made, progress too.
        static func result(
            _ completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void,
            progress: (@Sendable (TransferProgress) -> Void)? = nil
        ) -> Channel {
            Channel(.result(completion), progressHandler: progress)
        }

        /// The channel of `value()` and `response()`: the outcome waits in the task for
        /// ``NetworkTask/outcome()``.
        static func awaiting() -> Channel {
            Channel(.awaiting)
        }

        /// The channel of a streamed body: `receiver` takes the head, each chunk, and the end.
        static func bodyStream(_ receiver: any ResponseReceiver) -> Channel {
            Channel(.bodyStream, bodyReceiver: receiver)
        }

        /// This channel, running `handler` with the outcome's error (`nil` on success) once per
        /// firing, just before the outcome reaches its destination (the responder, the awaiting
        /// caller, the stream's end), on whatever thread the outcome is made.
        ///
        /// For a firing function that wraps another and must know when the call ends (a span, an
        /// activity count); cancellation and requests that could not be built end here too.
        public func onFinish(_ handler: @escaping @Sendable (NetworkError?) -> Void) -> Channel {
            var channel = self
            channel.finishHandlers.append(handler)
            return channel
        }
    }
}
