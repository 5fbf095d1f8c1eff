import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A scripted WebSocket server, offline: each connection runs the script with a
/// ``MockWebSocketPeer`` that receives what the app sends and sends, waits, closes or drops.
///
/// ```swift
/// let server = MockWebSocketServer(clock: time.clock) { peer in
///     while let message = await peer.receive() {      // answer each message…
///         try await peer.send(.text("echo: \(message.data.count) bytes"))
///     }
/// }
/// feed.transport = .mock(server)
/// // …later: what the app sent, over every connection
/// #expect(server.log.sentMessages == [.text("subscribe")])
/// ```
public struct MockWebSocketServer: Sendable {
    /// How the server answers a handshake.
    public enum Handshake: Sendable {
        /// Switches protocols, choosing the first subprotocol the app offers that is in `subprotocols`.
        case accept(subprotocols: [String] = [])
        /// Answers with a status other than 101, e.g. 401 or 503.
        case refuse(statusCode: Int, headers: HTTPHeaders = [:], body: Data? = nil)
        /// Cannot be reached: the handshake fails with this transport error.
        case fail(URLError.Code)
    }

    /// How each handshake is answered, by connection number (0 first); the last answers the rest.
    public var handshakes: [Handshake]
    /// What a peer's ``MockWebSocketPeer/sleep(for:)`` waits with: `.live`, or a `TestClock`'s.
    public var clock: NetworkClock
    /// Everything the app did: handshakes, messages, pings, closes.
    public let log: MockWebSocketLog
    let script: @Sendable (MockWebSocketPeer) async throws -> Void

    /// A server that runs `script` for each connection.
    ///
    /// - Parameters:
    ///   - handshakes: how each handshake is answered in turn, the last for the rest; accepted by default.
    ///   - clock: what the peer's waits use.
    ///   - script: the conversation; when it returns, the peer closes with 1000 (unless it closed
    ///     or dropped already); when it throws, the peer drops the connection.
    public init(
        handshakes: [Handshake] = [.accept()],
        clock: NetworkClock = .live,
        script: @escaping @Sendable (MockWebSocketPeer) async throws -> Void
    ) {
        self.handshakes = handshakes.isEmpty ? [.accept()] : handshakes
        self.clock = clock
        self.log = MockWebSocketLog()
        self.script = script
    }

    /// A server that answers each message with the messages `answer` returns, and stays open
    /// until the app closes.
    ///
    /// - Parameters:
    ///   - greeting: messages sent as soon as the connection opens.
    ///   - clock: what waits use.
    ///   - answer: the messages to send back for each message the app sends.
    /// - Returns: the server.
    public static func replying(
        greeting: [WebSocketMessage] = [],
        clock: NetworkClock = .live,
        _ answer: @escaping @Sendable (WebSocketMessage) -> [WebSocketMessage]
    ) -> MockWebSocketServer {
        MockWebSocketServer(clock: clock) { peer in
            for message in greeting { try await peer.send(message) }
            while let message = await peer.receive() {
                for reply in answer(message) { try await peer.send(reply) }
            }
        }
    }

    /// A server that sends every message back.
    public static var echo: MockWebSocketServer { replying { [$0] } }

    func handshake(number: Int) -> Handshake {
        handshakes[min(number, handshakes.count - 1)]
    }
}

extension WebSocketTransport {
    /// Connections to a scripted server instead of the network: offline apps, previews and tests.
    ///
    /// - Parameter server: the script and its log.
    /// - Returns: the transport.
    public static func mock(_ server: MockWebSocketServer) -> WebSocketTransport {
        WebSocketTransport(name: "mock") { handshake in
            let number = server.log.recordHandshake(handshake.request)
            switch server.handshake(number: number) {
            case .refuse(let statusCode, let headers, let body):
                throw WebSocketFailure.handshakeRefused(statusCode: statusCode, headers: headers, body: body)
            case .fail(let code):
                throw URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: handshake.url])
            case .accept(let subprotocols):
                let chosen = handshake.subprotocols.first { subprotocols.contains($0) }
                let peer = MockWebSocketPeer(handshake: handshake.request, subprotocol: chosen, clock: server.clock, log: server.log, connection: number)
                let script = server.script
                Task {
                    do {
                        try await script(peer)
                        await peer.close()
                    } catch {
                        peer.drop(because: "the mock script threw \(error)")
                    }
                }
                return peer.channel
            }
        }
    }
}
