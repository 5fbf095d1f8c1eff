import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// The one firing path: build the request, run the actions around sending it through
    /// `session`, and hand the final outcome to the responder on the callback queue.
    ///
    /// Without actions the path is synchronous up to the session, so a session that answers at
    /// once (mock firing) costs no thread hop.
    func run(through session: any NetworkSession, clock: NetworkClock = .live) -> NetworkTask {
        let task = NetworkTask(responder: responder, on: callbackQueue)
        let request: URLRequest
        switch builtRequest {
        case .success(let built):
            request = built
        case .failure(let error):
            task.finish(with: NetworkOutcome(request: nil, error: error))
            return task
        }
        callbackQueue.run(responder.taskHandler, with: task)
        let actions = server.actions.isEmpty && self.actions.isEmpty
            ? [] : (server.actions + self.actions).removingRepeatedInstances()
        if actions.isEmpty {
            Self.send(request, through: session, for: task, to: .task(task))
        } else {
            let call = self
            let work = Task { await call.attempt(request, with: actions, through: session, waitingOn: clock, for: task) }
            task.onCancel { work.cancel() }
        }
        return task
    }

    /// Runs attempts until an action stops asking for retries, then finishes the task.
    ///
    /// `prepare` runs in list order and `decide` in reverse (the onion order of middleware): the
    /// last action is closest to the wire, so it sees the request as sent and every attempt's
    /// response before any other action can retry or fail it.
    private func attempt(
        _ request: URLRequest,
        with actions: [any NetworkAction],
        through session: any NetworkSession,
        waitingOn clock: NetworkClock,
        for task: NetworkTask
    ) async {
        var attempt = 1
        while !task.isCancelled {
            var outcome = await prepareAndSend(request, with: actions, through: session, for: task)
            var retryDelay: TimeInterval?
            decisions: for action in actions.reversed() {
                switch await action.decide(after: outcome, for: self, attempt: attempt) {
                case .proceed:
                    continue
                case .fail(let error):
                    outcome.error = error
                case .retry:
                    retryDelay = 0
                    break decisions
                case .retryAfter(let seconds):
                    retryDelay = seconds
                    break decisions
                }
            }
            guard let retryDelay else {
                task.finish(with: outcome)
                return
            }
            // Returns early when the task is cancelled; the loop then ends.
            try? await clock.sleep(for: retryDelay)
            attempt += 1
        }
    }

    private func prepareAndSend(
        _ request: URLRequest,
        with actions: [any NetworkAction],
        through session: any NetworkSession,
        for task: NetworkTask
    ) async -> NetworkOutcome {
        var prepared = request
        do {
            for action in actions {
                prepared = try await action.prepare(prepared, for: self)
            }
            try Self.validateForWire(prepared)
        } catch {
            return NetworkOutcome(request: prepared, error: Self.actionError(error, from: prepared))
        }
        return await withCheckedContinuation { continuation in
            Self.send(prepared, through: session, for: task, to: .attempt(AttemptResumer(continuation)))
        }
    }

    /// Sends one request and hands what came back to `receiver` exactly once, also when the task
    /// is cancelled.
    private static func send(
        _ request: URLRequest,
        through session: any NetworkSession,
        for task: NetworkTask,
        to receiver: OutcomeReceiver
    ) {
        guard !task.isCancelled else {
            receiver.receive(NetworkOutcome(request: request, error: .cancelled))
            return
        }
        let sessionTask = session.start(request) { data, response, error in
            receiver.receive(NetworkOutcome(request: request, response: response, data: data, error: error.map(NetworkError.init)))
        }
        task.onCancel(cancelling: sessionTask)
    }

    private static func actionError(_ error: any Error, from request: URLRequest) -> NetworkError {
        if let networkError = error as? NetworkError { return networkError }
        if error is CancellationError { return .cancelled }
        return .invalidRequest(RequestProblem(.action, "an action refused \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? ""): \(error)"))
    }
}
