import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket echo server in this process, on SwiftNIO's own `NIOWebSocket` (neither side's
/// client code): 127.0.0.1, an ephemeral port, one event loop of its own. Every data frame comes
/// back as it came (opcode, fin, unmasked payload), pings are answered, a close is echoed and the
/// connection closed. It negotiates no extension, so neither side compresses.
///
/// It costs both sides the same, and far less than the Python `websockets` server, whose time per
/// message would hide the clients' difference.
public final class WebSocketEchoServer: Sendable {
    /// `ws://127.0.0.1:<port>`.
    public let baseURL: URL
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Starts listening.
    public init() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 26,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(EchoHandler()) }
            }
        )
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
        do {
            let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
            guard let port = channel.localAddress?.port, let url = URL(string: "ws://127.0.0.1:\(port)") else {
                throw WorkloadError("the WebSocket echo server has no local port")
            }
            self.channel = channel
            self.baseURL = url
            self.group = group
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    /// Stops listening and shuts its event loop down.
    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// Echoes data frames, answers pings, echoes a close and closes.
private final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            context.write(wrapOutboundOut(WebSocketFrame(fin: frame.fin, opcode: frame.opcode, data: frame.unmaskedData)), promise: nil)
        case .ping:
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)), promise: nil)
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
}
