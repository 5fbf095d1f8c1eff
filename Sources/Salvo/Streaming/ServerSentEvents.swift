import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server-Sent Events stream's settings, as ``NetCall/events(resumingAfter:reconnection:maximumLineLength:)``
/// made them: each iteration of its ``ResponseStream`` reads it with a `ServerSentEvents.Reader`.
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
/// follows its last event ID; see ``ReconnectionPolicy`` for when it gives up.
struct ServerSentEvents: StreamSource {
    /// The call each connection fires, before the stream's headers are added.
    let call: NetCall
    /// The event ID the first connection resumes after (`Last-Event-ID`); empty for none.
    let initialEventID: String
    /// When the stream reconnects, and when it gives up.
    let reconnection: ReconnectionPolicy
    /// The longest line accepted, in bytes; an event's data may hold 8 times that.
    let maximumLineLength: Int

    /// Reads the stream's events, without its comments and states.
    func makeReader() -> EventReader {
        EventReader(self)
    }

    /// Hands out a stream's events and nothing else.
    struct EventReader: StreamReader {
        private var reader: Reader

        init(_ stream: ServerSentEvents) {
            reader = Reader(stream, reportsActivity: false)
        }

        /// The next event, `nil` once the stream has ended; throws why it failed.
        mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> ServerSentEvent? {
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
