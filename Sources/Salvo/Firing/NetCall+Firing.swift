import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// Runs attempts until an action stops asking for retries, then finishes the task.
    ///
    /// `prepare` runs in list order and `decide` in reverse (the onion order of middleware): the
    /// last action is closest to the wire, so it sees the request as sent and every attempt's
    /// response before any other action can retry or fail it.
    ///
    /// A streamed call is decided on its head: once actions let a 2xx head through, its body
    /// reaches the task as it arrives and the attempt's end finishes the call; it is never
    /// retried, since a retry would deliver the body again. A head outside 2xx is collected
    /// whole and decided like any other outcome, so refresh and retry work before a byte is streamed.
    func attempt(
        _ request: URLRequest,
        with actions: [any NetworkAction],
        through session: any NetworkSession,
        waitingOn clock: NetworkClock,
        for task: NetworkTask
    ) async {
        var attemptNumber = 1
        /// The metrics of the attempts before this one, when the server collects them.
        var earlierMetrics: [AttemptMetrics] = []
        let credentialHeaders = AuthTokenAction.headers(setBy: actions)
        while !task.isCancelled {
            var outcome: AttemptOutcome
            var attempt: Attempt?
            let (prepared, refusal) = await prepare(request, with: actions)
            if let refusal {
                outcome = AttemptOutcome(request: prepared, error: refusal)
            } else {
                let sent = Attempt(
                    prepared, for: task, credentialHeaders: credentialHeaders,
                    measuring: server.collectsMetrics ? AttemptMeter(attempt: attemptNumber, clock: clock) : nil
                )
                sent.send(through: session)
                attempt = sent
                outcome = await sent.nextOutcome()
            }
            outcome.metrics = earlierMetrics + outcome.metrics
            guard let retryDelay = await decide(&outcome, with: actions, attempt: attemptNumber) else {
                if let attempt, attempt.isAwaitingDecision {
                    if outcome.error == nil {
                        // A head actions let through: stream its body, then finish with the end.
                        attempt.deliverBody()
                        outcome = await attempt.nextOutcome()
                        outcome.metrics = earlierMetrics + outcome.metrics
                    } else {
                        attempt.cancel()
                    }
                }
                task.finish(with: outcome)
                return
            }
            attempt?.cancel()
            earlierMetrics = outcome.metrics
            // Returns early when the task is cancelled; the loop then ends.
            try? await clock.sleep(for: retryDelay)
            attemptNumber += 1
        }
    }

    /// Runs each action's `decide` on one attempt's outcome, last to first: `.fail` replaces the
    /// outcome's error and the chain goes on; `.retry` and `.retryAfter` stop it.
    ///
    /// The attempt loop of requests and the handshake loop of WebSockets both decide here.
    ///
    /// - Returns: the seconds to wait before the next attempt when an action asked for one, else
    ///   `nil` (the outcome, with the error the last `.fail` chose, is final).
    func decide(_ outcome: inout AttemptOutcome, with actions: [any NetworkAction], attempt: Int) async -> TimeInterval? {
        for action in actions.reversed() {
            switch await action.decide(after: outcome, for: self, attempt: attempt) {
            case .proceed:
                continue
            case .fail(let error):
                outcome.error = error
            case .retry:
                return 0
            case .retryAfter(let seconds):
                return seconds
            }
        }
        return nil
    }

    /// The request after every action prepared it, and why it must not be sent, if it must not.
    func prepare(_ request: URLRequest, with actions: [any NetworkAction]) async -> (URLRequest, refusal: NetworkError?) {
        var prepared = request
        do {
            for action in actions {
                prepared = try await action.prepare(prepared, for: self)
            }
            // Each attempt reads the body from its first byte, in a stream of its own: the previous
            // attempt's may still be read for a moment after it was stopped.
            if let stream = prepared.httpBodyStream as? BodyStream {
                prepared.httpBodyStream = stream.restarted()
            }
            try Self.validateForWire(prepared)
            return (prepared, nil)
        } catch {
            return (prepared, Self.actionError(error, from: prepared))
        }
    }

    private static func actionError(_ error: any Error, from request: URLRequest) -> NetworkError {
        if let networkError = error as? NetworkError { return networkError }
        if error is CancellationError { return .cancelled }
        return .refusedByAction(error)
    }
}
