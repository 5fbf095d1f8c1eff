import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket, configured like any call: a server, an endpoint, actions and handlers set where
/// it is configured, connected with ``connect()`` or fired with ``fire()`` from anywhere.
///
/// The endpoint's URL is the handshake's: a `ws`/`wss` server, or an `http`/`https` one (sent as
/// `ws`/`wss`). The server's default headers and the endpoint's headers go with the handshake, and
/// every action's `prepare` runs on it, so an `AuthTokenAction` authenticates the socket.
///
/// ```swift
/// var feed = WebSocketCall(server: production, endpoint: .get("/feed"), subprotocols: ["feed.v2"])
/// let connection = try await feed.connect()
/// try await connection.send(Subscribe(channel: "books"))
/// for try await update in connection.messages(decoding: BookUpdate.self) {
///     catalogue.apply(update)
/// }
/// ```
public struct WebSocketCall: Sendable {
    /// Where the handshake goes: scheme (`ws`, `wss`, `http` or `https`), host, port, base path,
    /// default headers, the server's actions.
    public var server: ServerConfig
    /// The path, query and headers of the handshake; its method must be `GET` and it has no body.
    public var endpoint: Endpoint
    /// The subprotocols offered in `Sec-WebSocket-Protocol`, in order of preference; empty offers none.
    public var subprotocols: [String]
    /// Actions whose `prepare` runs on the handshake request after the server's.
    public var actions: [any NetworkAction]
    /// The largest message accepted, in bytes (1 MiB unless set); a bigger one closes the
    /// connection with 1009 and ends the messages with ``NetworkError/unacceptableResponse(_:)``.
    public var maximumMessageSize: Int
    /// Reconnection after a dropped connection; `nil` (the default) never reconnects. See
    /// ``WebSocketConnection`` for what counts as dropped.
    public var reconnection: ReconnectionPolicy?
    /// Runs on each new connection after a reconnection, before its messages are read: send the
    /// subscriptions the server forgot. A throw counts as a failed connection.
    public var resubscribe: (@Sendable (WebSocketConnection) async throws -> Void)?
    /// The handlers ``fire()`` runs: each message, the close, the error.
    public var responder: WebSocketResponder
    /// Where the responder's handlers run, `.main` by default.
    public var callbackQueue: CallbackQueue
    /// What encodes the `Encodable` values a connection sends as JSON text.
    public var encoder: JSONEncoder
    /// What opens connections: ``WebSocketTransport/platform`` unless set (a mock, the Linux transport).
    public var transport: WebSocketTransport

    /// A WebSocket call.
    ///
    /// - Parameters:
    ///   - server: where the handshake goes.
    ///   - endpoint: the path, query and headers; a `GET`.
    ///   - subprotocols: the subprotocols to offer.
    ///   - actions: actions run on the handshake after the server's.
    ///   - maximumMessageSize: the largest message accepted, in bytes.
    ///   - reconnection: reconnection after a dropped connection; `nil` never reconnects.
    ///   - responder: the handlers ``fire()`` runs.
    ///   - callbackQueue: where those handlers run.
    ///   - transport: what opens connections.
    public init(
        server: ServerConfig,
        endpoint: Endpoint,
        subprotocols: [String] = [],
        actions: [any NetworkAction] = [],
        maximumMessageSize: Int = 1 << 20,
        reconnection: ReconnectionPolicy? = nil,
        responder: WebSocketResponder = WebSocketResponder(),
        callbackQueue: CallbackQueue = .main,
        transport: WebSocketTransport = .platform
    ) {
        self.server = server
        self.endpoint = endpoint
        self.subprotocols = subprotocols
        self.actions = actions
        self.maximumMessageSize = maximumMessageSize
        self.reconnection = reconnection
        self.responder = responder
        self.callbackQueue = callbackQueue
        self.encoder = JSONEncoder()
        self.transport = transport
    }

    /// Performs the handshake and returns the open connection.
    ///
    /// - Returns: the connection; read it with ``WebSocketConnection/messages``.
    /// - Throws: ``NetworkError/invalidRequest(_:)`` for a bad URL, method or header,
    ///   ``NetworkError/refusedByAction(_:)`` when an action's `prepare` throws,
    ///   ``NetworkError/serverStatus(_:)`` when the server does not switch protocols,
    ///   ``NetworkError/transport(_:)`` naming the URL when it cannot be reached,
    ///   ``NetworkError/cancelled`` when the task is cancelled.
    public func connect() async throws(NetworkError) -> WebSocketConnection {
        let (channel, url) = try await open()
        return WebSocketConnection(call: self, channel: channel, url: url)
    }

    /// One handshake through the transport: the channel and the URL it reached.
    func open() async throws(NetworkError) -> (WebSocketChannel, URL) {
        let handshake = try await makeHandshake()
        let url = handshake.url
        if Task.isCancelled { throw .cancelled }
        do {
            return (try await transport.connect(handshake), url)
        } catch {
            throw Task.isCancelled ? .cancelled : Self.networkError(error, url: url)
        }
    }

    /// The handshake request: the call's URL in `ws`/`wss`, its headers, the subprotocols, then
    /// each active action's `prepare`, the server's first.
    func makeHandshake() async throws(NetworkError) -> WebSocketHandshake {
        guard endpoint.method == .get else {
            throw .invalidRequest(RequestProblem(.method, "a WebSocket handshake is a GET; the endpoint's method is \(endpoint.method.rawValue)"))
        }
        var httpServer = server
        let scheme = server.scheme.lowercased()
        switch scheme {
        case "ws", "http": httpServer.scheme = "http"
        case "wss", "https": httpServer.scheme = "https"
        default:
            throw .invalidRequest(RequestProblem(.scheme, "scheme \"\(server.scheme)\" is not a WebSocket scheme; use \"wss\" (or \"ws\" for a local server), or \"https\"/\"http\""))
        }
        let netCall = NetCall(server: httpServer, endpoint: endpoint, actions: actions)
        var request = try netCall.urlRequest()
        if !subprotocols.isEmpty {
            for name in subprotocols where !Self.isToken(name) {
                throw .invalidRequest(RequestProblem(.header, "subprotocol \"\(name)\" must be an HTTP token (letters, digits and !#$%&'*+-.^_`|~)"))
            }
            request.setValue(subprotocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol")
        }
        for action in (server.actions + actions).active(for: netCall) {
            do {
                request = try await action.prepare(request, for: netCall)
            } catch {
                throw Task.isCancelled ? .cancelled : .refusedByAction(error)
            }
        }
        if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.scheme = components.scheme == "https" ? "wss" : "ws"
            request.url = components.url ?? url
        }
        return WebSocketHandshake(request: request, subprotocols: subprotocols, maximumMessageSize: max(0, maximumMessageSize))
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }
}
