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
    /// How many received messages may wait unread (16 unless set): while that many do, the
    /// connection stops reading from the peer, and TCP's flow control slows it down. So a fast
    /// peer and a slow loop hold at most about this many messages (each at most
    /// ``maximumMessageSize``) instead of growing without limit.
    public var maximumUnreadMessages: Int
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
    ///   - maximumUnreadMessages: how many messages may wait unread before the connection stops reading.
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
        maximumUnreadMessages: Int = 16,
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
        self.maximumUnreadMessages = maximumUnreadMessages
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
    ///   ``NetworkError/serverStatus(_:)`` when the server does not switch protocols and no action
    ///   retried the handshake (a `TokenRenewalAction` renews on a `401`, a `RetryAction` retries),
    ///   the error an action's `decide` chose with `.fail`,
    ///   ``NetworkError/transport(_:)`` naming the URL when it cannot be reached,
    ///   ``NetworkError/cancelled`` when the task is cancelled.
    public func connect() async throws(NetworkError) -> WebSocketConnection {
        let (channel, url) = try await open()
        return WebSocketConnection(call: self, channel: channel, url: url)
    }

    /// Handshakes until the actions accept one: the channel and the URL it reached.
    ///
    /// After each handshake every action's `decide` runs on its outcome, last to first, as after a
    /// request's attempt: the `101` head (status and chosen subprotocol), a refusal's head and body
    /// (its `error` is `nil`, so a `TokenRenewalAction` renews on a `401`), or the transport's
    /// error. `.retry` and `.retryAfter` handshake again, running every `prepare` again; `.fail`
    /// fails the handshake, closing an accepted connection with 1000.
    func open() async throws(NetworkError) -> (WebSocketChannel, URL) {
        let (netCall, request) = try handshakeCall()
        let actions = (server.actions + self.actions).active(for: netCall)
        let clock = reconnection?.clock ?? .live
        var attemptNumber = 1
        while true {
            if Task.isCancelled { throw .cancelled }
            let (outcome, channel, failure) = await handshake(request, with: actions, for: netCall)
            var decided = outcome
            let retryDelay = await netCall.decide(&decided, with: actions, attempt: attemptNumber)
            if retryDelay == nil, decided.error == nil, let channel {
                return (channel, decided.head?.url ?? netCall.webSocketURL(request))
            }
            if let channel { try? await channel.send(.close(WebSocketClose(.normalClosure))) }
            guard let retryDelay else {
                throw decided.error ?? failure ?? .cancelled
            }
            do {
                try await clock.sleep(for: retryDelay)
            } catch {
                throw .cancelled
            }
            attemptNumber += 1
        }
    }

    /// One handshake: the actions prepare the request and the transport connects. Returns what
    /// the actions decide on, the channel when the server switched protocols, and the error the
    /// call fails with if no action retries or replaces it (for a refused head, `serverStatus`).
    private func handshake(
        _ request: URLRequest,
        with actions: [any NetworkAction],
        for netCall: NetCall
    ) async -> (AttemptOutcome, WebSocketChannel?, NetworkError?) {
        let (prepared, refusal) = await netCall.prepare(request, with: actions)
        var sent = prepared
        sent.url = netCall.webSocketURL(prepared)
        if let refusal { return (AttemptOutcome(request: sent, head: nil, error: refusal), nil, refusal) }
        let handshake = WebSocketHandshake(request: sent, subprotocols: subprotocols, maximumMessageSize: max(0, maximumMessageSize))
        let url = handshake.url
        if Task.isCancelled { return (AttemptOutcome(request: sent, head: nil, error: .cancelled), nil, .cancelled) }
        do {
            let channel = try await transport.connect(handshake)
            var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade"]
            if let chosen = channel.subprotocol { headers["Sec-WebSocket-Protocol"] = chosen }
            let head = ResponseHead(statusCode: 101, headers: headers, url: url)
            return (AttemptOutcome(request: sent, head: head), channel, nil)
        } catch {
            let networkError = Task.isCancelled ? .cancelled : Self.networkError(error, url: url)
            if case .handshakeRefused(let statusCode, let headers, let body)? = error as? WebSocketFailure, !Task.isCancelled {
                let head = ResponseHead(statusCode: statusCode, headers: headers, url: url)
                return (AttemptOutcome(request: sent, head: head, data: body), nil, networkError)
            }
            return (AttemptOutcome(request: sent, head: nil, error: networkError), nil, networkError)
        }
    }

    /// The call the actions see (the server in `http`/`https`, so each `prepare` sees the URL a
    /// request to that server has) and the handshake request before the actions: the URL, the
    /// headers and the subprotocols.
    func handshakeCall() throws(NetworkError) -> (NetCall, URLRequest) {
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
        return (netCall, request)
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }
}

extension NetCall {
    /// The URL a handshake request goes to: the prepared request's, in `ws`/`wss`.
    func webSocketURL(_ request: URLRequest) -> URL {
        guard let url = request.url else { return URL(fileURLWithPath: "/") }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.scheme = components.scheme?.lowercased() == "https" ? "wss" : "ws"
        return components.url ?? url
    }
}
