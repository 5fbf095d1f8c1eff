import Foundation

/// A Server-Sent Events stream whose events each carry a JSON value in their `data`: an
/// `AsyncSequence` of those values, decoded as they arrive.
///
/// ```swift
/// for try await tick in call.events(decoding: Tick.self) {
///     chart.append(tick)
/// }
/// ```
///
/// Every event is decoded, whatever its `event:` type; a stream that mixes types is better read
/// with ``NetCall/events(resumingAfter:reconnection:maximumLineLength:)`` and
/// ``ServerSentEvent/decode(_:using:)`` per type. An event whose data does not decode ends the
/// stream with ``NetworkError/decoding(_:)`` carrying that data. Connections, reconnection and
/// cancellation are those of ``ServerSentEvents``.
public struct DecodedServerSentEvents<Value: Decodable>: AsyncSequence, Sendable {
    /// One decoded event.
    public typealias Element = Value
    /// Why the stream ended, or the event that did not decode.
    public typealias Failure = NetworkError

    /// The events the values are decoded from.
    public let events: ServerSentEvents
    /// What decodes each event's data: the server's ``ServerConfig/decoder`` unless another was given.
    public let decoder: JSONDecoder

    /// Starts the stream: the first connection fires on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), decoder: decoder)
    }

    /// Reads a ``DecodedServerSentEvents`` stream.
    public struct Iterator: AsyncIteratorProtocol {
        /// The events; `nil` once one did not decode, which drops (and so cancels) the connection.
        var events: ServerSentEvents.Iterator?
        let decoder: JSONDecoder

        /// The next value, `nil` once the stream has ended; throws why it failed, or the
        /// decoding failure of the event that did not decode.
        public mutating func next() async throws(NetworkError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next value, `nil` once the stream has ended; throws like ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Value? {
            guard let event = try await events?.next(isolation: actor) else { return nil }
            do throws(NetworkError) {
                return try event.decode(Value.self, using: decoder)
            } catch {
                events = nil
                throw error
            }
        }
    }
}
