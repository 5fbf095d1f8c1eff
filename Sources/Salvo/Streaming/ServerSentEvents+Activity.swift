import Foundation

extension ServerSentEvents {
    /// The state of a stream's connection, as a UI shows it: the standard's `CONNECTING`, `OPEN`
    /// and `CLOSED`, with the wait before a reconnection told apart from the connecting itself.
    public enum ConnectionState: Sendable, Hashable {
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

    /// One thing that happened on a stream, in the order it happened.
    public enum Activity: Sendable, Equatable {
        /// An event, as ``ServerSentEvents`` hands it out.
        case event(ServerSentEvent)
        /// A comment line (`: text`), without its colon and the one space after it; servers send
        /// them as heartbeats.
        case comment(String)
        /// The connection's state changed.
        case state(ConnectionState)
    }

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
    public var activity: Activities {
        Activities(stream: self)
    }

    /// A ``ServerSentEvents`` stream read with its comments and connection states: an
    /// `AsyncSequence` of ``ServerSentEvents/Activity``.
    ///
    /// It connects, reconnects and fails exactly as the events alone do; each iteration is a
    /// stream of its own, starting with ``ServerSentEvents/ConnectionState/connecting``.
    public struct Activities: AsyncSequence, Sendable {
        /// Why the stream failed.
        public typealias Failure = NetworkError

        /// The stream whose activity this is.
        let stream: ServerSentEvents

        /// Starts the stream: the first connection fires on the first `next()`.
        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: Reader(stream, reportsActivity: true))
        }

        /// Reads a stream's activity, connecting and reconnecting as it goes.
        public struct Iterator: AsyncIteratorProtocol {
            var reader: Reader

            /// The next activity, `nil` once the stream has ended; throws why it failed.
            public mutating func next() async throws(NetworkError) -> Activity? {
                try await reader.next(isolation: nil)
            }

            /// The next activity, `nil` once the stream has ended; throws why it failed.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Activity? {
                try await reader.next(isolation: actor)
            }
        }
    }
}
