import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What opens WebSocket connections for a ``WebSocketCall``: the seam a transport implements.
///
/// Salvo builds the handshake (URL, headers, subprotocols, the actions' `prepare`), hands it to
/// `connect`, and reads and writes frames through the `WebSocketChannel` it returns. Apps choose
/// one: ``mock(_:)`` offline, `URLSessionWebSocketTask` on Apple platforms (the default there), the
/// SalvoWebSocket package's `.webSocketClient()` on Linux.
///
/// ```swift
/// var feed = WebSocketCall(server: production, endpoint: .get("/feed"))
/// feed.transport = .mock(MockWebSocketServer { peer in try await peer.send(.text("hello")) })
/// ```
public struct WebSocketTransport: Sendable {
    let connect: @Sendable (WebSocketHandshake) async throws -> WebSocketChannel
    /// The name errors use, e.g. `mock` or `WSClient`.
    let name: String

    /// A transport from its connect function.
    ///
    /// - Parameters:
    ///   - name: what errors call it, e.g. `WSClient`.
    ///   - connect: opens a connection for a handshake, or throws (a ``WebSocketFailure`` where it can).
    @_spi(Transport) public init(name: String, connect: @escaping @Sendable (WebSocketHandshake) async throws -> WebSocketChannel) {
        self.name = name
        self.connect = connect
    }

    /// The platform's own transport: `URLSessionWebSocketTask` on Apple platforms; on Linux, where
    /// FoundationNetworking has no WebSockets, one that fails every call with
    /// ``NetworkError/incompleteSetup(_:)`` saying to use the SalvoWebSocket package.
    public static var platform: WebSocketTransport {
        #if canImport(Darwin)
        return .urlSession()
        #else
        return WebSocketTransport(name: "none") { handshake in
            throw NetworkError.incompleteSetup(SetupProblem(.session, "no WebSocket transport for \(Redaction.default.redact(handshake.url).absoluteString): FoundationNetworking on Linux has none; add the SalvoWebSocket package (Transports/WebSocket) and set `call.transport = .webSocketClient()`"))
        }
        #endif
    }
}

/// The opening handshake Salvo asks a transport to perform.
@_spi(Transport) public struct WebSocketHandshake: Sendable {
    /// The request: a `ws` or `wss` URL, its headers (the actions' included) and
    /// `Sec-WebSocket-Protocol` when the call offers subprotocols.
    public var request: URLRequest
    /// The subprotocols offered, in order of preference.
    public var subprotocols: [String]
    /// The largest message, in bytes, the transport should accept: past it, close with 1009 and
    /// throw ``WebSocketFailure/messageTooBig(limit:)``.
    public var maximumMessageSize: Int
    /// The URL, for transports and their errors.
    public var url: URL { request.url ?? URL(fileURLWithPath: "/") }

    /// A handshake from its parts.
    public init(request: URLRequest, subprotocols: [String], maximumMessageSize: Int) {
        self.request = request
        self.subprotocols = subprotocols
        self.maximumMessageSize = maximumMessageSize
    }
}

/// A frame between Salvo and a transport: whole messages, pings, pongs and the close.
@_spi(Transport) public enum WebSocketFrame: Sendable, Hashable {
    /// A whole text or binary message.
    case message(WebSocketMessage)
    /// A ping with its payload (at most 125 bytes).
    case ping(Data)
    /// A pong with its payload.
    case pong(Data)
    /// A close frame; inbound, the last frame a transport yields before its stream ends.
    case close(WebSocketClose)
}

/// An open connection as a transport hands it to Salvo.
///
/// Salvo pulls what the peer sends with ``receive``, one call at a time, from the task that reads:
/// the connection's reader, or the app's loop itself once it waits for messages (one task fewer
/// per message). So a read may be cancelled with the app's task: the transport then ends its
/// frames (returns `nil` or throws) and Salvo closes with 1000 through ``send``, which must still
/// work.
///
/// ```swift
/// WebSocketChannel(receive: { try await socket.nextFrame() }, send: { frame in try await socket.write(frame) })
/// ```
@_spi(Transport) public struct WebSocketChannel: Sendable {
    /// The subprotocol the server chose, if any.
    public var subprotocol: String?
    /// The next thing the peer sent: a message, a pong (when the transport reports them), at most
    /// one close; `nil` once it ended (after the close), and throws when the connection fails.
    /// Not called again after `nil` or an error.
    public var receive: @Sendable () async throws -> WebSocketFrame?
    /// Sends a frame; a `.close` starts the closing handshake.
    public var send: @Sendable (WebSocketFrame) async throws -> Void

    /// A channel from its parts.
    public init(
        subprotocol: String? = nil,
        receive: @escaping @Sendable () async throws -> WebSocketFrame?,
        send: @escaping @Sendable (WebSocketFrame) async throws -> Void
    ) {
        self.subprotocol = subprotocol
        self.receive = receive
        self.send = send
    }

    /// A channel whose frames come from a stream, for a transport that reads on a task of its own.
    /// A read cancelled with the app's task ends an `AsyncThrowingStream` (its `onTermination`
    /// runs): close with 1000 there, or keep `send` working for Salvo's 1000 close.
    public init(
        subprotocol: String? = nil,
        inbound: AsyncThrowingStream<WebSocketFrame, any Error>,
        send: @escaping @Sendable (WebSocketFrame) async throws -> Void
    ) {
        let frames = Locked(Optional(inbound.makeAsyncIterator()))
        self.init(subprotocol: subprotocol, receive: {
            // One read at a time: the iterator is taken out for it and put back after.
            var iterator = frames.withLock { $0.take() }
            defer { frames.withLock { $0 = iterator } }
            return try await iterator?.next()
        }, send: send)
    }
}

/// A failure a transport reports in words Salvo turns into a ``NetworkError`` naming the URL.
@_spi(Transport) public enum WebSocketFailure: Error, Sendable {
    /// The server answered the handshake with this status instead of `101`.
    case handshakeRefused(statusCode: Int, headers: HTTPHeaders, body: Data?)
    /// A message exceeded the limit; the transport closed with 1009.
    case messageTooBig(limit: Int)
    /// A text message was not valid UTF-8; the transport closed with 1007.
    case invalidUTF8
    /// The peer broke the protocol; the transport closed with 1002.
    case protocolError(String)
    /// The connection ended without a close frame (reset, EOF, timeout).
    case connectionLost(String)
}
