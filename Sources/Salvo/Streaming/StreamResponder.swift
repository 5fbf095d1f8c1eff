import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The streaming form of ``NetworkResponder``, for callback code: the response head, each chunk
/// of the body as it arrives, and the end, on the call's ``CallbackQueue``.
///
/// ```swift
/// let task = call.stream(to: StreamResponder(
///     head: { head in progress.expected = head.headers["Content-Length"].flatMap { Int64($0) } ?? -1 },
///     chunk: { chunk in progress.received += chunk.count },
///     completion: { error in progress.finish(error) }
/// ))
/// ```
///
/// For one firing: `head` at most once, for a 2xx response the call's actions let through;
/// then `chunk` for each chunk, in order; then `completion` exactly once, with `nil`
/// when the whole body arrived, otherwise with the error (a status outside 2xx arrives here, its
/// body in the error, and no chunk is streamed). Nothing runs after the completion. Chunks are
/// handed to the queue as they arrive: a queue that cannot keep up holds them in memory, so a slow
/// consumer of a large body should read ``NetCall/bytes()`` instead, which bounds memory.
public struct StreamResponder: Sendable {
    /// Receives the response head before the first chunk.
    let headHandler: @Sendable (ResponseHead) -> Void
    /// Receives each chunk of the body, in order.
    let chunkHandler: @Sendable (Data) -> Void
    /// Receives the end: `nil` when the whole body arrived, otherwise why it did not.
    let completionHandler: @Sendable (NetworkError?) -> Void

    /// A streaming responder from its three handlers; each defaults to doing nothing.
    ///
    /// - Parameters:
    ///   - head: receives the response head before the first chunk.
    ///   - chunk: receives each chunk of the body, in order.
    ///   - completion: receives the end: `nil` when the whole body arrived, otherwise why it did not.
    public init(
        head: @escaping @Sendable (ResponseHead) -> Void = { _ in },
        chunk: @escaping @Sendable (Data) -> Void = { _ in },
        completion: @escaping @Sendable (NetworkError?) -> Void = { _ in }
    ) {
        headHandler = head
        chunkHandler = chunk
        completionHandler = completion
    }
}

extension NetCall {
    /// Fires the call and streams its body to `responder` on the call's callback queue.
    ///
    /// The call's own ``responder`` still receives the outcome at the end, as for any firing,
    /// with an empty body: the body went to `responder`.
    @discardableResult
    public func stream(to responder: StreamResponder) -> NetworkTask {
        firingFunction(self, .responder(self.responder, on: callbackQueue, streamingTo: CallbackStreamReceiver(responder, on: callbackQueue)))
    }
}

/// Hands a streamed body to a ``StreamResponder`` on its queue; once the completion has run,
/// chunks still queued behind it are dropped.
private final class CallbackStreamReceiver: ResponseReceiver {
    private let responder: StreamResponder
    private let queue: CallbackQueue
    private let hasCompleted = Locked(false)

    init(_ responder: StreamResponder, on queue: CallbackQueue) {
        self.responder = responder
        self.queue = queue
    }

    func receive(_ head: ResponseHead) {
        queue.run { [self] in
            if !hasCompleted.withLock({ $0 }) { responder.headHandler(head) }
        }
    }

    func receive(_ chunk: Data) {
        queue.run { [self] in
            if !hasCompleted.withLock({ $0 }) { responder.chunkHandler(chunk) }
        }
    }

    func finish(_ error: (any Error)?) {
        let error = error.map(NetworkError.init)
        queue.run { [self] in
            let isFirst = hasCompleted.withLock { completed in
                defer { completed = true }
                return !completed
            }
            if isFirst { responder.completionHandler(error) }
        }
    }
}
