import Foundation

/// The state of an event stream's connection, as a UI shows it: the standard's `CONNECTING`,
/// `OPEN` and `CLOSED`, with the wait before a reconnection told apart from the connecting itself.
public enum EventStreamState: Sendable, Hashable {
    /// A connection is being made: the request is on its way, no head has arrived yet.
    case connecting
    /// The server answered with an event stream; events arrive as it sends them.
    case open
    /// The connection ended and the stream waits `seconds` before connecting again.
    case waitingToReconnect(seconds: TimeInterval)
    /// The stream ended for good without an error (a `204`, or the end of a body that is not
    /// reconnected). A stream that fails throws instead.
    case closed
}

/// One thing that happened on a Server-Sent Events stream, in the order it happened: what
/// ``ResponseStream/activity`` hands out.
public enum EventStreamActivity: Sendable, Equatable {
    /// An event, as the stream of events hands it out.
    case event(ServerSentEvent)
    /// A comment line (`: text`), without its colon and the one space after it; servers send
    /// them as heartbeats.
    case comment(String)
    /// The connection's state changed.
    case state(EventStreamState)
}

extension ResponseStream where Element == ServerSentEvent {
    /// The stream's events together with its comments and the state of its connection, for a
    /// caller who shows them or wants the heartbeats.
    ///
    /// ```swift
    /// for try await activity in call.events().activity {
    ///     switch activity {
    ///     case .event(let event): messages.append(event.data)
    ///     case .comment: break                       // a heartbeat
    ///     case .state(let state): connection = state // .connecting, .open, .waitingToReconnect, .closed
    ///     }
    /// }
    /// ```
    ///
    /// It connects, reconnects and fails exactly as the events alone do; each iteration is a
    /// stream of its own, starting with ``EventStreamState/connecting``.
    public var activity: ResponseStream<EventStreamActivity> {
        // Only `events()` makes a stream of events, from a `ServerSentEvents`.
        guard let events = source as? ServerSentEvents else { return ResponseStream<EventStreamActivity>(source: EventsAsActivity(events: self)) }
        return ResponseStream<EventStreamActivity>(source: ActivitySource(stream: events))
    }
}

/// A Server-Sent Events stream read with its comments and connection states.
private struct ActivitySource: StreamSource {
    let stream: ServerSentEvents

    func makeReader() -> ServerSentEvents.Reader {
        ServerSentEvents.Reader(stream, reportsActivity: true)
    }
}

/// The activity of a stream of events that knows no connection: its events. Keeps
/// ``ResponseStream/activity`` total without a trap.
private struct EventsAsActivity: StreamSource {
    let events: ResponseStream<ServerSentEvent>

    func makeReader() -> Reader {
        Reader(events: events.makeAsyncIterator())
    }

    struct Reader: StreamReader {
        var events: ResponseStream<ServerSentEvent>.Iterator

        mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> EventStreamActivity? {
            try await events.next(isolation: actor).map(EventStreamActivity.event)
        }
    }
}
