import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The actions' onion order, shared by the attempt loop of requests
/// (`FiringFunction.attempts(of:_:with:through:clock:for:)`) and the handshake loop of WebSockets:
/// `prepare` runs in list order and `decide` in reverse, so the last action is closest to the wire.
extension NetCall {
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
