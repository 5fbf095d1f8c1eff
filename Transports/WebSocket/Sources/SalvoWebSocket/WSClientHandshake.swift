import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
@_spi(Transport) import Salvo
import WSClient
@_spi(WSInternal) import WSCore

/// WSClient's client, with a refused handshake's answer kept.
///
/// WSClient 1.6.2's `WebSocketClient` ends a handshake the server answers with anything but `101`
/// in `WebSocketClientError.webSocketUpgradeFailed`, and drops the status, headers and body: its
/// channel (`WebSocketClientChannel`, internal) hands NIO's upgrade handler a "not upgraded"
/// callback that sees the channel, not the response. So a `401` could never reach Salvo's actions
/// (a `TokenRenewalAction` renews on the status). This client sets the connection up as
/// `WebSocketClientChannel` does, on WSClient's public `ClientConnection`, with one difference: when
/// the server does not switch protocols, a handler added behind NIO's upgrade handler collects the
/// response head and body it passes on, and the run throws
/// `WebSocketFailure.handshakeRefused` with them. An upgraded connection runs WSClient's own
/// `WebSocketHandler` (SPI `WSInternal`, hence the package's pin to swift-websocket 1.6.x).
/// A server's TCP close that comes with the `101` is held past the upgrade (`InputClosedDeferrer`,
/// `InputClosedHolder`). Proxies are not set up (Salvo's transport never asked WSClient for one).
struct RefusalReportingClient: Sendable {
    /// What the data handler sees besides the streams: the logger, as WSClient's context.
    struct Context: WebSocketContext {
        let logger: Logger
    }

    let url: String
    let configuration: WebSocketClientConfiguration
    let tlsConfiguration: TLSConfiguration?
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let handler: WebSocketDataHandler<Context>

    init(
        url: String,
        configuration: WebSocketClientConfiguration,
        tlsConfiguration: TLSConfiguration?,
        eventLoopGroup: any EventLoopGroup,
        logger: Logger,
        handler: @escaping WebSocketDataHandler<Context>
    ) {
        self.url = url
        self.configuration = configuration
        self.tlsConfiguration = tlsConfiguration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        self.handler = handler
    }

    /// Connects, runs the handler, and returns the server's close frame if it sent one, as
    /// `WebSocketClient.run()` does.
    func run() async throws -> WebSocketCloseFrame? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw WebSocketClientError.invalidURL
        }
        let secure = ["wss", "https"].contains(components.scheme?.lowercased() ?? "")
        let port = components.port ?? (secure ? 443 : 80)
        let tls = secure ? (tlsConfiguration ?? TLSConfiguration.makeClientConfiguration()) : nil
        let channel = try UpgradingChannel(
            host: host,
            port: components.port,
            scheme: components.scheme ?? "ws",
            target: (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
                + (components.percentEncodedQuery.map { "?\($0)" } ?? ""),
            configuration: configuration,
            sslContext: tls.map { try NIOSSLContext(configuration: $0) },
            handler: handler
        )
        let connection = ClientConnection(channel, address: .hostname(host, port: port), eventLoopGroup: eventLoopGroup, logger: logger)
        do {
            return try await connection.run()
        } catch {
            throw Self.publicError(error)
        }
    }

    /// WSClient's `WebSocketHandler` fails with a package-internal `InternalError.close(code)`
    /// that `WebSocketClient.run()` turns into a `WebSocketClientError`; outside the package the
    /// type cannot be named, so its one case is read by reflection and turned the same way.
    static func publicError(_ error: any Error) -> any Error {
        guard String(describing: type(of: error)) == "InternalError",
              let code = Mirror(reflecting: error).children.first?.value as? WebSocketErrorCode
        else { return error }
        switch code {
        case .messageTooLarge: return WebSocketClientError.serverSentMessageTooLarge
        case .dataInconsistentWithMessage: return WebSocketClientError.serverSentDataInconsistentWithMessage
        default: return WebSocketClientError.serverProtocolError
        }
    }
}

/// WSClient's `WebSocketClientChannel.setupWSUpgrade` and `handle`, keeping the refusal.
private struct UpgradingChannel: ClientConnectionChannel {
    enum Upgrade {
        case webSocket(NIOAsyncChannel<NIOWebSocket.WebSocketFrame, NIOWebSocket.WebSocketFrame>, [any WebSocketExtension])
        case refused(EventLoopFuture<Refusal>)
    }

    typealias Value = EventLoopFuture<Upgrade>

    let host: String
    let port: Int?
    let scheme: String
    let target: String
    let configuration: WebSocketClientConfiguration
    let sslContext: NIOSSLContext?
    let handler: WebSocketDataHandler<RefusalReportingClient.Context>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture { try upgrade(channel, logger: logger) }
    }

    private func upgrade(_ channel: any Channel, logger: Logger) throws -> Value {
        let configuration = configuration
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: configuration.maxFrameSize) { channel, head in
            channel.eventLoop.makeCompletedFuture {
                let asyncChannel = try NIOAsyncChannel<NIOWebSocket.WebSocketFrame, NIOWebSocket.WebSocketFrame>(wrappingChannelSynchronously: channel)
                var fields = HTTPFields()
                for (name, value) in head.headers {
                    if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                }
                return .webSocket(asyncChannel, try configuration.extensions.buildClientExtensions(from: fields))
            }
        }
        // An IPv6 literal is bracketed in Host and Origin.
        let authority = host.contains(":") ? "[\(host)]" : host
        var headers = NIOHTTP1.HTTPHeaders()
        headers.replaceOrAdd(name: "Host", value: port.map { "\(authority):\($0)" } ?? authority)
        headers.replaceOrAdd(name: "Origin", value: "\(scheme)://\(authority)")
        for field in configuration.additionalHeaders {
            headers.add(name: field.name.rawName, value: field.value)
        }
        for offer in configuration.extensions.map({ $0.clientRequestHeader() }) where !offer.isEmpty {
            headers.add(name: "Sec-WebSocket-Extensions", value: offer)
        }
        let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers),
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                // NIO passes the response on to the handlers behind its upgrade handler once this
                // future completes: the collector, added last, reads it.
                channel.eventLoop.makeCompletedFuture {
                    let collector = RefusalCollector(promise: channel.eventLoop.makePromise())
                    try channel.pipeline.syncOperations.addHandler(collector)
                    return .refused(collector.promise.futureResult)
                }
            }
        )
        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration)
        pipeline.leftOverBytesStrategy = .forwardBytes
        if let sslContext {
            // SNI carries host names only; an IP address goes without it.
            let name = configuration.sniHostname ?? ((try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil)
            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: name), position: .first)
        }
        // In front of NIO's HTTP decoder (and behind TLS), so the decoder sees the end of input late.
        try channel.pipeline.syncOperations.addHandler(InputClosedDeferrer())
        let upgraded = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
        // Behind NIO's upgrade handler, so the handlers the upgrade adds come after it.
        let eof = InputClosedHolder()
        try channel.pipeline.syncOperations.addHandler(eof)
        upgraded.assumeIsolated().whenComplete { _ in
            // NIO completes the upgrade, then passes on the bytes it buffered meanwhile, in one
            // go on the event loop: the end of input goes behind them, on the loop's next turn.
            channel.eventLoop.assumeIsolated().execute { eof.release() }
        }
        return upgraded
    }

    func handle(value: Value, logger: Logger) async throws -> WebSocketCloseFrame? {
        switch try await value.get() {
        case .webSocket(let channel, let extensions):
            return try await WebSocketHandler.handle(
                type: .client,
                configuration: .init(
                    extensions: extensions,
                    autoPing: configuration.autoPing,
                    closeTimeout: configuration.closeTimeout,
                    validateUTF8: configuration.validateUTF8,
                    ignoreUncleanSSLShutdownErrors: configuration.ignoreUncleanSSLShutdownErrors,
                    maxFrameSize: configuration.maxFrameSize
                ),
                asyncChannel: channel,
                context: RefusalReportingClient.Context(logger: logger),
                handler: handler
            )
        case .refused(let refusal):
            let answer = try await refusal.get()
            logger.debug("Upgrade declined", metadata: ["status": "\(answer.head.status.code)"])
            throw WebSocketFailure.handshakeRefused(
                statusCode: Int(answer.head.status.code),
                headers: Salvo.HTTPHeaders(answer.head.headers.map { ($0.name, $0.value) }),
                body: answer.body.readableBytes > 0 ? Data(answer.body.readableBytesView) : nil
            )
        }
    }
}

/// A handshake's answer other than `101`: its head and (the first 64 KiB of) its body.
private struct Refusal: Sendable {
    var head: HTTPResponseHead
    var body: ByteBuffer
}

/// Reads the response NIO's upgrade handler passes on when the server did not switch protocols,
/// completes with it at its end (or when the connection ends, or past 64 KiB of body), and
/// closes the connection: the handshake is over.
private final class RefusalCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    static let bodyLimit = 1 << 16
    let promise: EventLoopPromise<Refusal>
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(promise: EventLoopPromise<Refusal>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var part):
            let room = Self.bodyLimit - body.readableBytes
            if let bytes = part.readSlice(length: min(room, part.readableBytes)) { body.writeImmutableBuffer(bytes) }
            if body.readableBytes >= Self.bodyLimit { finish(context: context) }
        case .end:
            finish(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(context: context, error: error)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(context: context)
    }

    private func finish(context: ChannelHandlerContext, error: (any Error)? = nil) {
        guard !done else { return }
        done = true
        if let head {
            promise.succeed(Refusal(head: head, body: body))
        } else {
            promise.fail(error ?? WebSocketClientError.webSocketUpgradeFailed)
        }
        context.close(promise: nil)
    }
}

/// Passes the end of the server's input on one turn of the event loop late.
///
/// When a server's TCP close (FIN) comes in the same read as the `101` and a first message,
/// NIO's upgrade handler asks to remove the HTTP decoder, which NIO does on the loop's next turn
/// and only then forwards the bytes after the `101` (the message). The end of input reached the
/// decoder before that, and NIO's `HTTPDecoder.decodeLast` forwards left-over bytes only when it
/// has not seen the end of input: the message was dropped (issue 40). Passed on a turn late, the
/// end of input comes behind the decoder's removal, and so behind the message.
private final class InputClosedDeferrer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .some(ChannelEvent.inputClosed) = event as? ChannelEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.assumeIsolated().execute {
            loopBound.value.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
    }
}

/// Holds the end of the server's input while the upgrade is under way, and passes it on after.
///
/// WSClient's connection allows half-closure, so a server's TCP close (FIN) reaches the pipeline
/// as `ChannelEvent.inputClosed`, not as `channelInactive`. When the FIN comes in the same read
/// as the `101` (a server that answers, sends a message and closes at once), NIO removes its HTTP
/// decoder, and so upgrades, on a later turn of the event loop, so the event passed its upgrade
/// handler (which buffers reads, not events) before the upgrade had added the `NIOAsyncChannel`
/// handler, which then never learned the input ended: the connection waited for good (issue 40).
/// `InputClosedDeferrer` now delays the event past that turn; in case an upgrade takes longer,
/// this handler, added right behind the upgrade handler, keeps the event until the upgrade is
/// over and NIO has passed on the bytes it buffered, then passes it on and leaves the pipeline.
private final class InputClosedHolder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var context: ChannelHandlerContext?
    private var held = false
    private var released = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !released, case .some(ChannelEvent.inputClosed) = event as? ChannelEvent {
            held = true
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Passes on the end of input if it came during the upgrade, and leaves the pipeline. Runs on
    /// the channel's event loop.
    func release() {
        guard !released, let context else { return }
        released = true
        if held { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
