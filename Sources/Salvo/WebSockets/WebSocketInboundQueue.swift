import Foundation

/// A short queue between a transport's reading loop and Salvo, for backpressure: ``push(_:)``
/// waits while `capacity` frames are unread, so a loop that awaits it stops reading the socket
/// while the app does not read messages, and TCP's flow control slows the peer.
///
/// ``makeStream()`` is the channel's `inbound`. When Salvo stops reading it (its reading task is
/// cancelled, or the stream is dropped), ``push(_:)`` returns `false` and the action given to
/// ``onAbandon(_:)`` runs once: stop the connection there. One loop pushes; one task reads.
///
/// ```swift
/// let queue = WebSocketInboundQueue()
/// let reading = Task {
///     for try await frame in socketFrames { guard await queue.push(frame) else { return } }
///     queue.finish()
/// }
/// queue.onAbandon { reading.cancel() }
/// return WebSocketChannel(inbound: queue.makeStream()) { frame in try await socket.write(frame) }
/// ```
@_spi(Transport) public final class WebSocketInboundQueue: Sendable {
    private struct State {
        var frames: [WebSocketFrame] = []
        /// A frame pushed while the queue was full, and its loop, waiting for room.
        var pending: (frame: WebSocketFrame, writer: CheckedContinuation<Bool, Never>)?
        var reader: CheckedContinuation<WebSocketFrame?, any Error>?
        /// How the frames end once read: `nil` while they go on; an error is thrown once, then `nil`.
        var end: Result<Void, any Error>?
        var isAbandoned = false
        var onAbandon: (@Sendable () -> Void)?
    }

    private let capacity: Int
    private let state = Locked(State())

    /// An empty queue.
    ///
    /// - Parameter capacity: how many frames may wait unread before ``push(_:)`` waits (at least 1).
    public init(capacity: Int = 1) {
        self.capacity = max(1, capacity)
    }

    /// What to do once Salvo stops reading (stop the connection); run at once if it already has.
    ///
    /// - Parameter action: the action, run once.
    public func onAbandon(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.isAbandoned else { return true }
            state.onAbandon = action
            return false
        }
        if runNow { action() }
    }

    /// Adds a frame, waiting while the queue is full.
    ///
    /// - Parameter frame: what the peer sent.
    /// - Returns: `false` when Salvo no longer reads (the frame is dropped; stop reading), or the
    ///   pushing task was cancelled.
    public func push(_ frame: WebSocketFrame) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (writer: CheckedContinuation<Bool, Never>) in
                enum Step { case done(Bool), deliver(CheckedContinuation<WebSocketFrame?, any Error>), wait }
                let step = state.withLock { state -> Step in
                    if state.isAbandoned || state.end != nil || Task.isCancelled { return .done(false) }
                    if let reader = state.reader {
                        state.reader = nil
                        return .deliver(reader)
                    }
                    if state.frames.count < capacity {
                        state.frames.append(frame)
                        return .done(true)
                    }
                    state.pending = (frame, writer)
                    return .wait
                }
                switch step {
                case .done(let accepted): writer.resume(returning: accepted)
                case .deliver(let reader):
                    reader.resume(returning: frame)
                    writer.resume(returning: true)
                case .wait: break
                }
            }
        } onCancel: {
            let writer = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                defer { state.pending = nil }
                return state.pending?.writer
            }
            writer?.resume(returning: false)
        }
    }

    /// Ends the frames after those queued: normally, or with `error`.
    ///
    /// - Parameter error: the connection's failure, `nil` when it ended normally.
    public func finish(throwing error: (any Error)? = nil) {
        let (reader, end) = state.withLock { state -> (CheckedContinuation<WebSocketFrame?, any Error>?, Result<Void, any Error>?) in
            guard state.end == nil else { return (nil, nil) }
            let end: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
            guard let reader = state.reader else {
                state.end = end
                return (nil, nil)
            }
            state.reader = nil
            state.end = .success(())
            return (reader, end)
        }
        guard let reader, let end else { return }
        switch end {
        case .success: reader.resume(returning: nil)
        case .failure(let error): reader.resume(throwing: error)
        }
    }

    /// The frames, for `WebSocketChannel.inbound`; make it once. Dropping it, or cancelling the
    /// task that reads it, abandons the queue.
    ///
    /// - Returns: the stream.
    public func makeStream() -> AsyncThrowingStream<WebSocketFrame, any Error> {
        let reading = Reading(queue: self)
        return AsyncThrowingStream { try await reading.next() }
    }

    fileprivate func next() async throws -> WebSocketFrame? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reader: CheckedContinuation<WebSocketFrame?, any Error>) in
                enum Step { case frame(WebSocketFrame, CheckedContinuation<Bool, Never>?), end(Result<Void, any Error>), wait }
                let step = state.withLock { state -> Step in
                    if !state.frames.isEmpty {
                        let frame = state.frames.removeFirst()
                        guard let pending = state.pending else { return .frame(frame, nil) }
                        state.pending = nil
                        state.frames.append(pending.frame)
                        return .frame(frame, pending.writer)
                    }
                    if let end = state.end {
                        state.end = .success(())
                        return .end(end)
                    }
                    if state.isAbandoned { return .end(.failure(CancellationError())) }
                    state.reader = reader
                    return .wait
                }
                switch step {
                case .frame(let frame, let writer):
                    reader.resume(returning: frame)
                    writer?.resume(returning: true)
                case .end(.success): reader.resume(returning: nil)
                case .end(.failure(let error)): reader.resume(throwing: error)
                case .wait: break
                }
            }
        } onCancel: {
            abandon()
        }
    }

    /// Salvo no longer reads: drop what is queued, release the loop and the reader, run `onAbandon`.
    fileprivate func abandon() {
        let (reader, writer, action) = state.withLock { state in
            guard !state.isAbandoned else { return (nil, nil, nil) as (CheckedContinuation<WebSocketFrame?, any Error>?, CheckedContinuation<Bool, Never>?, (@Sendable () -> Void)?) }
            state.isAbandoned = true
            state.frames.removeAll()
            defer {
                state.reader = nil
                state.pending = nil
                state.onAbandon = nil
            }
            return (state.reader, state.pending?.writer, state.onAbandon)
        }
        reader?.resume(throwing: CancellationError())
        writer?.resume(returning: false)
        action?()
    }
}

/// The reading side of a queue's stream: when the stream and its iterators are gone, nobody reads.
private final class Reading: Sendable {
    let queue: WebSocketInboundQueue

    init(queue: WebSocketInboundQueue) {
        self.queue = queue
    }

    deinit {
        queue.abandon()
    }

    func next() async throws -> WebSocketFrame? {
        try await queue.next()
    }
}
