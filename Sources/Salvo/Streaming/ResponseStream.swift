import Foundation

/// A call's body as it arrives: an `AsyncSequence` of chunks, lines, decoded values,
/// Server-Sent Events or a stream's activity.
///
/// ```swift
/// for try await chunk in call.bytes() { file.write(chunk) }                       // ResponseStream<Data>
/// for try await line in call.lines() { log.append(line) }                         // ResponseStream<String>
/// for try await update in call.jsonLines(of: PriceUpdate.self) { apply(update) }  // ResponseStream<PriceUpdate>
/// for try await event in call.events() { show(event.data) }                       // ResponseStream<ServerSentEvent>
/// for try await tick in call.events(decoding: Tick.self) { chart.append(tick) }   // ResponseStream<Tick>
/// ```
///
/// What makes the stream decides how it fires and ends:
///
/// - ``NetCall/bytes()`` fires the call when the stream is made and hands out its body's chunks;
///   ``head`` is the response head as soon as it arrives.
/// - ``NetCall/lines(maximumLineLength:)`` and ``NetCall/jsonLines(of:decoder:maximumLineLength:)``
///   read one firing's body, which fires when the stream is made; firing, actions and
///   cancellation are those of ``NetCall/bytes()``. Lines end at LF, CR or CRLF and come without
///   their terminator; a last line without one is still delivered; invalid UTF-8 becomes U+FFFD.
///   A line longer than `maximumLineLength` (1 MiB unless you pass another) ends the stream with
///   ``NetworkError/unacceptableResponse(_:)``, so a server that never sends a line break cannot
///   make memory grow. JSON Lines skips blank lines.
/// - ``NetCall/events(resumingAfter:reconnection:maximumLineLength:)`` and
///   ``NetCall/events(decoding:decoder:resumingAfter:reconnection:maximumLineLength:)`` read a
///   Server-Sent Events stream, as a browser's `EventSource` does: each iteration fires its first
///   connection on its first `next()` and reconnects when a connection ends (see
///   Docs/Streaming.md and ``ReconnectionPolicy``). ``activity`` adds the comments and the
///   connection's state. A `204 No Content` ends the stream without an error; a status outside
///   2xx (after the call's actions) throws ``NetworkError/serverStatus(_:)``; another 2xx that is
///   not `text/event-stream` throws ``NetworkError/unacceptableResponse(_:)``.
///
/// A decoded stream decodes each element (a line, or every event's data whatever its `event:`
/// type) where the caller is, with the server's ``ServerConfig/decoder`` unless you pass another;
/// an element that does not decode ends the stream with ``NetworkError/decoding(_:)`` carrying that
/// line or event data, and drops the connection. Breaking out of the loop, cancelling the
/// enclosing task or dropping the iterator cancels the call and any wait; a cancelled task's loop
/// throws ``NetworkError/cancelled``. On a server whose ``ValidationAction`` accepts other types,
/// `call.actions.append(ValidationAction())` lets a call stream text.
public struct ResponseStream<Element>: AsyncSequence, Sendable {
    /// Why the stream ended before its end: the call's error, a line too long, an element that
    /// did not decode.
    public typealias Failure = NetworkError

    /// What each iteration reads.
    let source: any StreamSource<Element>

    /// Starts reading; an event stream fires its first connection on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: source.makeReader())
    }

    /// Reads a ``ResponseStream``.
    public struct Iterator: AsyncIteratorProtocol {
        private var reader: any StreamReader<Element>

        init(reader: any StreamReader<Element>) {
            self.reader = reader
        }

        /// The next element, `nil` once the stream has ended; throws why it failed.
        public mutating func next() async throws(NetworkError) -> Element? {
            try await reader.next(isolation: nil)
        }

        /// The next element, `nil` once the stream has ended; throws why it failed. Decodes in
        /// `actor`'s isolation, so a model that is not `Sendable` never crosses one.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Element? {
            try await reader.next(isolation: actor)
        }
    }
}

/// What a ``ResponseStream`` reads: makes the reader of each iteration. A value, so a stream
/// crosses isolation whatever its element type.
protocol StreamSource<Element>: Sendable {
    associatedtype Element
    associatedtype Reading: StreamReader<Element>

    /// What one iteration reads.
    func makeReader() -> Reading
}

/// What one iteration of a ``ResponseStream`` reads: a body's lines, decoded values, a
/// Server-Sent Events stream's events or activity. Readers stack (decoded values read lines,
/// which read chunks) and are generic over what they read, so each step is written once.
protocol StreamReader<Element> {
    associatedtype Element

    /// The next element, `nil` after the last; throws the error that ended the stream.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Element?
}

