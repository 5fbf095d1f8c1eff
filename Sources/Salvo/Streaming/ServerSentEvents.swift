import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server-Sent Events stream, as a browser's `EventSource` reads one: an `AsyncSequence` of
/// ``ServerSentEvent`` that reconnects when its connection ends.
///
/// ```swift
/// for try await event in call.events() where event.event == "price" {
///     let price = try event.decode(Price.self)   // with the server's decoder
///     savedEventID = event.id   // resume from it next launch: call.events(resumingAfter:)
/// }
/// ```
///
/// Each connection fires the call (through its firing function and actions) with
/// `Accept: text/event-stream`, `Cache-Control: no-cache` and, once the stream has an event ID,
/// `Last-Event-ID`. Its head decides what follows:
///
/// - 2xx with `Content-Type: text/event-stream`: the body is parsed by ``ServerSentEventParser``
///   (the WHATWG rules) and each event is handed out as it completes.
/// - `204 No Content`: the server wants no more; the sequence ends without an error.
/// - another 2xx: throws ``NetworkError/unacceptableResponse(_:)`` naming the content type.
/// - outside 2xx, after the call's actions (a ``RetryAction`` may retry it): throws
///   ``NetworkError/serverStatus(_:)``.
/// - a transport error: counts as a failure and reconnects (see below).
///
/// When a body ends, cleanly or because the connection dropped, the event it cut off is dropped
/// and the stream reconnects after the reconnection time (the server's latest `retry:`, else
/// ``ReconnectionPolicy/delay``), asking for what follows its last event ID; see
/// ``ReconnectionPolicy`` for when it gives up. The iteration fires the first connection, so each
/// iteration is a stream of its own. Breaking out of the loop, cancelling the enclosing task or
/// dropping the iterator cancels the connection and any wait; a cancelled task's loop throws
/// ``NetworkError/cancelled``.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// One event, in the order the server sent them.
    public typealias Element = ServerSentEvent
    /// Why the stream ended other than by a `204` or, without reconnection, the end of its body.
    public typealias Failure = NetworkError

    /// The call each connection fires, before the stream's headers are added.
    public let call: NetCall
    /// The event ID the first connection resumes after (`Last-Event-ID`); empty for none.
    public let initialEventID: String
    /// When the stream reconnects, and when it gives up.
    public let reconnection: ReconnectionPolicy
    /// The longest line accepted, in bytes; an event's data may hold 8 times that.
    public let maximumLineLength: Int

    init(call: NetCall, initialEventID: String, reconnection: ReconnectionPolicy, maximumLineLength: Int) {
        self.call = call
        self.initialEventID = initialEventID
        self.reconnection = reconnection
        self.maximumLineLength = maximumLineLength
    }

    /// Starts the stream: the first connection fires on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(self)
    }

    /// Reads a ``ServerSentEvents`` stream, connecting and reconnecting as it goes.
    public struct Iterator: AsyncIteratorProtocol {
        private let stream: ServerSentEvents
        private var parser: ServerSentEventParser
        /// The current connection's body; `nil` before the first and between connections.
        private var body: ResponseBytes.Iterator?
        private var pending: [ServerSentEvent] = []
        private var nextPending = 0
        /// Connections in a row that ended in a transport error before an event arrived on them.
        private var failures = 0
        /// Whether an event arrived on the current connection, which then does not count as failed.
        private var hasEventOnConnection = false
        /// Whether the body of the current connection has ended, so the next one must wait first.
        private var mustWaitBeforeConnecting = false
        private var isFinished = false

        init(_ stream: ServerSentEvents) {
            self.stream = stream
            parser = ServerSentEventParser(lastEventID: stream.initialEventID, maximumLineLength: stream.maximumLineLength)
        }

        /// The next event, `nil` once the stream has ended; throws why it failed.
        public mutating func next() async throws(NetworkError) -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, `nil` once the stream has ended; throws why it failed.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ServerSentEvent? {
            while nextPending == pending.count {
                guard !isFinished else { return nil }
                pending = []
                nextPending = 0
                do throws(NetworkError) {
                    try await advance(isolation: actor)
                } catch {
                    isFinished = true
                    body = nil
                    throw error
                }
            }
            defer { nextPending += 1 }
            var event = pending[nextPending]
            // So that `event.decode(T.self)` uses the server's decoder, as every untyped path does.
            event.serverDecoder = stream.call.server.decoder
            return event
        }

        /// One step of the stream: wait and connect when there is no connection, else read the
        /// next chunk and parse it.
        private mutating func advance(isolation actor: isolated (any Actor)?) async throws(NetworkError) {
            guard var reading = body else {
                try await connect(isolation: actor)
                return
            }
            let chunk: Data?
            do throws(NetworkError) {
                chunk = try await reading.next(isolation: actor)
            } catch {
                try end(droppedBy: error)
                return
            }
            body = reading
            guard let chunk else {
                try end(droppedBy: nil)
                return
            }
            pending = try parser.parse(chunk)
            if !pending.isEmpty {
                failures = 0
                hasEventOnConnection = true
            }
        }

        /// Ends the current connection, deciding whether the stream reconnects.
        ///
        /// - Parameter error: why the connection ended; `nil` when its body ended cleanly.
        /// - Throws: `error` when it is no transport error, when the call's method does not
        ///   reconnect, or when it is one failure too many.
        private mutating func end(droppedBy error: NetworkError?) throws(NetworkError) {
            defer { hasEventOnConnection = false }
            body = nil
            parser.finish()
            guard stream.reconnection.reconnects(stream.call) else {
                if let error { throw error }
                isFinished = true
                return
            }
            if let error {
                guard case .transport = error else { throw error }
                if !hasEventOnConnection { failures += 1 }
                if failures > stream.reconnection.maximumFailures { throw error }
            }
            mustWaitBeforeConnecting = true
        }

        /// Waits the reconnection time if a connection ended before, then fires the next one
        /// and checks its head: the body is then read by ``advance(isolation:)``.
        private mutating func connect(isolation actor: isolated (any Actor)?) async throws(NetworkError) {
            if mustWaitBeforeConnecting {
                do {
                    try await stream.reconnection.clock.sleep(for: parser.reconnectionTime ?? stream.reconnection.delay)
                } catch {
                    throw .cancelled
                }
                mustWaitBeforeConnecting = false
            }
            if Task.isCancelled { throw .cancelled }
            let bytes = stream.connectionCall(lastEventID: parser.lastEventID).bytes()
            let head: HTTPURLResponse
            do throws(NetworkError) {
                head = try await bytes.response
            } catch {
                try end(droppedBy: error)
                return
            }
            if head.statusCode == 204 {
                isFinished = true
                return
            }
            guard Self.isEventStream(head) else {
                throw await Self.refusal(of: head, body: bytes)
            }
            body = bytes.makeAsyncIterator()
        }

        private static func isEventStream(_ head: HTTPURLResponse) -> Bool {
            head.value(forHTTPHeaderField: "Content-Type").flatMap(MediaType.init)?.description == "text/event-stream"
        }

        /// The most of a refused body the error keeps, to show what the server sent instead.
        private static let refusedBodyPreview = 16 << 10

        /// The error for a 2xx answer that is not an event stream, with the start of its body.
        private static func refusal(of head: HTTPURLResponse, body: ResponseBytes) async -> NetworkError {
            var preview = Data()
            do {
                for try await chunk in body {
                    preview.append(chunk.prefix(refusedBodyPreview - preview.count))
                    if preview.count >= refusedBodyPreview { break }
                }
            } catch {
                // The preview is a courtesy: the refusal below is the error that matters.
            }
            let type = head.value(forHTTPHeaderField: "Content-Type").map { "Content-Type \"\($0)\"" } ?? "no Content-Type"
            return .unacceptableResponse(ResponseProblem(
                "a Server-Sent Events stream must be text/event-stream, and this \(head.statusCode) answer has \(type); "
                    + "check the URL, and that the server streams events there",
                statusCode: head.statusCode,
                url: head.url,
                headers: HTTPHeaders(head),
                body: preview
            ))
        }
    }

    /// The call for one connection: the stream's headers, and `Last-Event-ID` when there is an ID.
    func connectionCall(lastEventID: String) -> NetCall {
        var connection = call
        var endpoint = call.endpoint
        endpoint.headers["Accept"] = "text/event-stream"
        endpoint.headers["Cache-Control"] = "no-cache"
        endpoint.headers["Last-Event-ID"] = lastEventID.isEmpty ? nil : lastEventID
        connection.endpoint = endpoint
        return connection
    }
}
