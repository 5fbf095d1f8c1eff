import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the app did with a ``MockWebSocketServer``: each handshake, and each message, ping and
/// close it sent, in order over every connection. Verify against it as against a route log.
///
/// ```swift
/// #expect(server.log.handshakes.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")
/// #expect(server.log.sentMessages == [.text(#"{"subscribe":"books"}"#)])
/// #expect(server.log.closes == [WebSocketClose(.normalClosure)])
/// ```
public final class MockWebSocketLog: Sendable {
    /// One thing the app sent, with the number of the connection it went on (0 first).
    public struct Entry: Sendable, Hashable {
        /// What was sent.
        public enum Event: Sendable, Hashable {
            /// A message.
            case message(WebSocketMessage)
            /// A ping and its payload.
            case ping(Data)
            /// The app's close.
            case close(WebSocketClose)
        }

        /// The connection, counted from 0 in handshake order.
        public let connection: Int
        /// What the app sent.
        public let event: Event

        /// An entry, e.g. to compare with ``MockWebSocketLog/entries``.
        ///
        /// - Parameters:
        ///   - connection: the connection's number.
        ///   - event: what was sent.
        public init(connection: Int, event: Event) {
            self.connection = connection
            self.event = event
        }
    }

    private struct State {
        var handshakes: [URLRequest] = []
        var entries: [Entry] = []
    }

    private let state = Locked(State())

    /// An empty log.
    public init() {}

    /// The handshake requests, in order, as the transport received them (after the actions).
    public var handshakes: [URLRequest] { state.withLock { $0.handshakes } }

    /// Everything the app sent, in order.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// The messages the app sent, over every connection, in order.
    public var sentMessages: [WebSocketMessage] {
        entries.compactMap { entry in
            if case .message(let message) = entry.event { return message }
            return nil
        }
    }

    /// The closes the app sent, in order.
    public var closes: [WebSocketClose] {
        entries.compactMap { entry in
            if case .close(let close) = entry.event { return close }
            return nil
        }
    }

    func recordHandshake(_ request: URLRequest) -> Int {
        return state.withLock { state in
            state.handshakes.append(request)
            return state.handshakes.count - 1
        }
    }

    func record(_ event: Entry.Event, connection: Int) {
        state.withLock { $0.entries.append(Entry(connection: connection, event: event)) }
    }
}
