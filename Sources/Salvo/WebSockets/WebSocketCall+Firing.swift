import Foundation

extension WebSocketCall: Fireable {
    /// Connects and runs the ``responder``'s handlers on ``callbackQueue`` until the connection
    /// ends; the same shape as `NetCall.fire()`, so something that knows nothing of WebSockets can
    /// fire it.
    ///
    /// - Returns: the task; `cancel()` closes the connection with 1000 and runs `failed` with
    ///   ``NetworkError/cancelled``.
    @discardableResult
    public func fire() -> NetworkTask {
        let task = NetworkTask(reportingTo: .result { _ in }, decoder: server.decoder, clock: .live)
        let responder = responder
        let queue = callbackQueue
        let run = Task {
            let outcome: NetworkError
            do throws(NetworkError) {
                let connection = try await connect()
                if let opened = responder.opened { queue.run(opened, with: connection) }
                for try await message in connection.messages {
                    if let handler = responder.message { queue.run(handler, with: message) }
                }
                if task.finish(with: AttemptOutcome(request: nil, head: nil, data: Data())) {
                    if let closed = responder.closed { queue.run(closed, with: connection.peerClose) }
                }
                return
            } catch {
                outcome = error
            }
            // A cancelled task already reported itself through `cancel()`.
            if task.finish(with: AttemptOutcome(request: nil, head: nil, error: outcome)) {
                if let failed = responder.failed { queue.run(failed, with: outcome) }
            }
        }
        task.onCancel {
            run.cancel()
            if let failed = responder.failed { queue.run(failed, with: NetworkError.cancelled) }
        }
        return task
    }
}
