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

    private let inbox: WebSocketInbox

    init(_ inbox: WebSocketInbox) {
        self.inbox = inbox
    }

    /// An iterator over the messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reading: WebSocketInbox.Reading(inbox))
    }

    /// Hands out the messages one by one.
    public struct Iterator: AsyncIteratorProtocol {
        let reading: WebSocketInbox.Reading

        /// The next message, `nil` once the connection closed.
        public mutating func next() async throws(NetworkError) -> WebSocketMessage? {
            try await next(isolation: nil)
        }

        /// The next message, read in `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> WebSocketMessage? {
            do {
                guard let message = try await reading.inbox.next() else {
                    if Task.isCancelled { throw NetworkError.cancelled }
                    return nil
                }
                return message
            } catch {
                throw NetworkError(error)
            }
        }
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
