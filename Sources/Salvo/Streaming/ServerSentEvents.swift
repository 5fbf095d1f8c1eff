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
/// - 2xx with `Content-Type: text/event-stream`: the body is parsed by the WHATWG rules
///   (Docs/Streaming.md) and each event is handed out as it completes.
/// - `204 No Content`: the server wants no more; the sequence ends without an error.
/// - another 2xx: throws ``NetworkError/unacceptableResponse(_:)`` naming the content type, at
///   once, with what of the body arrived within a quarter of a second.
/// - outside 2xx, after the call's actions (a ``RetryAction`` may retry it): throws
///   ``NetworkError/serverStatus(_:)``.
/// - a transport error: counts as a failure and reconnects (see below).
///
/// When a body ends, cleanly or because the connection dropped (or stayed silent past the
/// policy's ``ReconnectionPolicy/idleTimeout``), the event it cut off is dropped and the stream
/// reconnects after the reconnection time (the server's latest `retry:`, else
/// ``ReconnectionPolicy/delay``, backing off while connections keep ending), asking for what
/// follows its last event ID; see ``ReconnectionPolicy`` for when it gives up. Comments and the
/// connection's state are in ``activity``. The iteration fires the first connection, so each
/// iteration is a stream of its own. Breaking out of the loop, cancelling the enclosing task or
/// dropping the iterator cancels the connection and any wait; a cancelled task's loop throws
/// ``NetworkError/cancelled``.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// Why the stream ended other than by a `204` or, without reconnection, the end of its body.
    public typealias Failure = NetworkError

    /// The call each connection fires, before the stream's headers are added.
    let call: NetCall
    /// The event ID the first connection resumes after (`Last-Event-ID`); empty for none.
    let initialEventID: String
    /// When the stream reconnects, and when it gives up.
    public let reconnection: ReconnectionPolicy
    /// The longest line accepted, in bytes; an event's data may hold 8 times that.
    let maximumLineLength: Int

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
        private var reader: Reader

        init(_ stream: ServerSentEvents) {
            reader = Reader(stream, reportsActivity: false)
        }

        /// The next event, `nil` once the stream has ended; throws why it failed.
        public mutating func next() async throws(NetworkError) -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, `nil` once the stream has ended; throws why it failed.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ServerSentEvent? {
            // Without activity reported, the reader hands out nothing but events.
            while let activity = try await reader.next(isolation: actor) {
                if case .event(let event) = activity { return event }
            }
            return nil
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
