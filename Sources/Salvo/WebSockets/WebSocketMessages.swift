import Foundation

/// The messages a ``WebSocketConnection`` receives, in order, as an `AsyncSequence` that throws
/// ``NetworkError``. Read it once; leaving the loop or cancelling its task closes the connection
/// with 1000, and the loop then throws ``NetworkError/cancelled`` if the task was cancelled.
/// While ``WebSocketCall/maximumUnreadMessages`` messages wait unread, the connection stops
/// reading from the peer (backpressure), so a slow loop holds a bounded number of messages.
///
/// ```swift
/// for try await message in connection.messages {
///     if case .text(let line) = message { lines.append(line) }
/// }
/// ```
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A whole message.
    public typealias Element = WebSocketMessage
    /// What the loop throws.
    public typealias Failure = NetworkError

    private let stream: AsyncThrowingStream<WebSocketMessage, any Error>
    private let backlog: WebSocketBacklog?

    init(_ stream: AsyncThrowingStream<WebSocketMessage, any Error>, backlog: WebSocketBacklog? = nil) {
        self.stream = stream
        self.backlog = backlog
    }

    /// An iterator over the messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), backlog: backlog)
    }

    /// Hands out the messages one by one.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<WebSocketMessage, any Error>.AsyncIterator
        let backlog: WebSocketBacklog?

        /// The next message, `nil` once the connection closed.
        public mutating func next() async throws(NetworkError) -> WebSocketMessage? {
            try await next(isolation: nil)
        }

        /// The next message, read in `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> WebSocketMessage? {
            do {
                guard let message = try await base.next(isolation: actor) else {
                    if Task.isCancelled { throw NetworkError.cancelled }
                    return nil
                }
                backlog?.read()
                return message
            } catch {
                throw NetworkError(error)
            }
        }
    }
}

/// How many messages wait unread in a connection: the task that reads the peer waits in
/// ``received()`` while `limit` do, until the app reads one or stops reading (``release()``).
final class WebSocketBacklog: Sendable {
    private struct State {
        var unread = 0
        var isReleased = false
        var reader: CheckedContinuation<Void, Never>?
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A message was handed to the app: waits while `limit` are unread.
    func received() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    state.unread += 1
                    guard !state.isReleased, state.unread >= limit, !Task.isCancelled else { return false }
                    state.reader = reader
                    return true
                }
                if !waits { reader.resume() }
            }
        } onCancel: {
            let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume()
        }
    }

    /// The app read a message.
    func read() {
        resume { state in state.unread = max(0, state.unread - 1) }
    }

    /// Nobody reads any more (the app closed, left the loop, or the messages ended): never wait again.
    func release() {
        resume { state in state.isReleased = true }
    }

    private func resume(after change: (inout State) -> Void) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            guard state.isReleased || state.unread < limit else { return nil }
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume()
    }
}

/// A connection's messages decoded as JSON, one value per message, decoded where the loop runs so
/// `Value` need not be `Sendable`. A message that does not decode ends the loop with
/// ``NetworkError/decoding(_:)`` carrying its bytes; the connection stays open until you close it.
///
/// ```swift
/// for try await quote in connection.messages(decoding: Quote.self) { board.update(quote) }
/// ```
public struct WebSocketDecodedMessages<Value: Decodable>: AsyncSequence {
    /// One decoded message.
    public typealias Element = Value
    /// What the loop throws.
    public typealias Failure = NetworkError

    let messages: WebSocketMessages
    let decoder: JSONDecoder

    /// An iterator over the decoded messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: messages.makeAsyncIterator(), decoder: decoder)
    }

    /// Hands out the decoded values one by one.
    public struct Iterator: AsyncIteratorProtocol {
        var base: WebSocketMessages.Iterator
        let decoder: JSONDecoder

        /// The next value, `nil` once the connection closed.
        public mutating func next() async throws(NetworkError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next value, decoded in `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Value? {
            guard let message = try await base.next(isolation: actor) else { return nil }
            return try message.decode(Value.self, using: decoder)
        }
    }
}

extension WebSocketConnection {
    /// The messages decoded as JSON, each as one `Value`, in the caller's isolation.
    ///
    /// - Parameters:
    ///   - type: the type every message holds.
    ///   - decoder: the decoder; the server's `decoder` unless given.
    /// - Returns: the decoded messages; the same single reading of ``messages``.
    public func messages<Value: Decodable>(decoding type: Value.Type, using decoder: JSONDecoder? = nil) -> WebSocketDecodedMessages<Value> {
        WebSocketDecodedMessages(messages: messages, decoder: decoder ?? serverDecoder)
    }
}
