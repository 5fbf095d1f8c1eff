import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket
@_spi(Transport) import Salvo
import WSClient
import WSCompression

extension WebSocketTransport {
    /// WebSocket connections over hummingbird-project's `WSClient` (SwiftNIO): the transport for
    /// Linux, where FoundationNetworking has no WebSockets, and for servers.
    ///
    /// ```swift
    /// var feed = WebSocketCall(server: production, endpoint: .get("/feed"))
    /// feed.transport = .webSocketClient()
    /// ```
    ///
    /// - Parameters:
    ///   - compression: what the handshake offers; permessage-deflate (RFC 7692) unless set to
    ///     `.none`, used when the server accepts it (see ``WebSocketCompression``).
    ///   - tlsConfiguration: TLS for `wss`, the system's trust roots unless given.
    ///   - eventLoopGroup: where connections run; SwiftNIO's shared group unless given.
    ///   - logger: WSClient's logger; silent unless given.
    /// - Returns: the transport.
    public static func webSocketClient(
        compression: WebSocketCompression = .permessageDeflate(),
        tlsConfiguration: TLSConfiguration? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "Salvo.WebSocket", factory: { _ in SwiftLogNoOpLogHandler() })
    ) -> WebSocketTransport {
        WebSocketTransport(name: "WSClient") { handshake in
            try await WSClientConnection.open(
                handshake,
                compression: compression,
                tlsConfiguration: tlsConfiguration,
                eventLoopGroup: eventLoopGroup,
                logger: logger
            )
        }
    }
}

/// One WSClient connection, turned inside out: WSClient runs a closure for the life of the
/// connection; Salvo wants a channel it reads and writes from anywhere.
enum WSClientConnection {
    static func open(
        _ handshake: WebSocketHandshake,
        compression: WebSocketCompression,
        tlsConfiguration: TLSConfiguration?,
        eventLoopGroup: any EventLoopGroup,
        logger: Logger
    ) async throws -> WebSocketChannel {
        let limit = max(1, handshake.maximumMessageSize)
        let configuration = WebSocketClientConfiguration(
            // A frame may be as big as a whole message; WSClient's own default is 16 KiB.
            maxFrameSize: max(1 << 14, min(limit, Int(UInt32.max))),
            additionalHeaders: headerFields(of: handshake.request),
            extensions: compression.extensions(maximumMessageSize: limit),
            validateUTF8: true
        )
        // Backpressure: the closure reads WSClient's next message only once Salvo has room for it,
        // so a slow reader stops the socket's reads (and TCP slows the peer) instead of queueing.
        let queue = WebSocketInboundQueue()
        let opened = Opened()
        let url = handshake.url
        // WSClient's WebSocketClient, set up so that a refused handshake keeps its status.
        let client = RefusalReportingClient(
            url: url.absoluteString,
            configuration: configuration,
            tlsConfiguration: tlsConfiguration,
            eventLoopGroup: eventLoopGroup,
            logger: logger
        ) { messages, outbound, _ in
            opened.succeed(WebSocketChannel(inbound: queue.makeStream()) { frame in try await write(frame, to: outbound) })
            var iterator = messages.messages(maxSize: limit).makeAsyncIterator()
            while let message = try await iterator.next() {
                let frame: Salvo.WebSocketFrame = switch message {
                case .text(let text): .message(.text(text))
                case .binary(let buffer): .message(.binary(Data(buffer.readableBytesView)))
                }
                guard await queue.push(frame) else { return }
            }
        }
        let run = Task {
            do {
                let close = try await client.run()
                if let close {
                    let code = WebSocketClose.Code(rawValue: number(of: close.closeCode))
                    _ = await queue.push(.close(WebSocketClose(code, reason: close.reason ?? "")))
                }
                opened.fail(failure(nil, limit: limit))
                queue.finish()
            } catch {
                let failure = failure(error, limit: limit)
                opened.fail(failure)
                queue.finish(throwing: failure)
            }
        }
        queue.onAbandon { run.cancel() }
        return try await withTaskCancellationHandler {
            try await opened.channel()
        } onCancel: {
            run.cancel()
        }
    }

    private static func write(_ frame: Salvo.WebSocketFrame, to outbound: WebSocketOutboundWriter) async throws {
        switch frame {
        case .message(.text(let text)):
            try await outbound.write(.text(text))
        case .message(.binary(let data)):
            try await outbound.write(.binary(ByteBuffer(bytes: data)))
        case .ping(let payload):
            try await outbound.write(.custom(NIOWebSocket.WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(bytes: payload))))
        case .pong(let payload):
            try await outbound.write(.custom(NIOWebSocket.WebSocketFrame(fin: true, opcode: .pong, data: ByteBuffer(bytes: payload))))
        case .close(let close):
            try await outbound.close(WebSocketErrorCode(codeNumber: Int(close.code.rawValue)), reason: close.reason.isEmpty ? nil : close.reason)
        }
    }

    /// A close code's number: NIO keeps it only as its wire form.
    private static func number(of code: WebSocketErrorCode) -> UInt16 {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: code)
        return buffer.readInteger(as: UInt16.self) ?? WebSocketClose.Code.noStatusReceived.rawValue
    }

    /// The request's headers for WSClient, less those it writes itself.
    private static func headerFields(of request: URLRequest) -> HTTPFields {
        var fields = HTTPFields()
        let own: Set<String> = ["host", "origin", "sec-websocket-extensions", "sec-websocket-key", "sec-websocket-version", "upgrade", "connection"]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where !own.contains(name.lowercased()) {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    /// WSClient's error in Salvo's words.
    private static func failure(_ error: (any Error)?, limit: Int) -> any Error {
        switch error {
        case nil:
            return WebSocketFailure.connectionLost("the connection closed before the handshake completed")
        case let error as WebSocketClientError where error == .serverSentMessageTooLarge:
            return WebSocketFailure.messageTooBig(limit: limit)
        case let error as WebSocketClientError where error == .serverSentDataInconsistentWithMessage:
            return WebSocketFailure.invalidUTF8
        case let error as WebSocketClientError where error == .serverProtocolError:
            return WebSocketFailure.protocolError("\(error)")
        case let error as WebSocketFailure:
            return error
        case let error as WebSocketClientError where error == .webSocketUpgradeFailed:
            return URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "the server refused the WebSocket handshake without a complete HTTP answer"])
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "connection refused"])
        case let error?:
            if error is CancellationError { return error }
            return WebSocketFailure.connectionLost("\(error)")
        }
    }
}

/// The channel handed from inside WSClient's closure to the `connect` that waits for it, once.
/// It lets go of the channel once handed over, so that a channel Salvo drops is gone (its inbound
/// queue is then abandoned and the connection stopped).
private final class Opened: Sendable {
    private struct State {
        var result: Result<WebSocketChannel, any Error>?
        var waiter: CheckedContinuation<WebSocketChannel, any Error>?
        var isDone = false
    }

    private let state = NIOLockedValueBox(State())

    func succeed(_ channel: WebSocketChannel) { complete(.success(channel)) }

    func fail(_ error: any Error) { complete(.failure(error)) }

    func channel() async throws -> WebSocketChannel {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLockedValue { state -> Result<WebSocketChannel, any Error>? in
                guard let result = state.result else {
                    state.waiter = continuation
                    return nil
                }
                state.result = nil
                return result
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func complete(_ result: Result<WebSocketChannel, any Error>) {
        let waiter = state.withLockedValue { state -> CheckedContinuation<WebSocketChannel, any Error>? in
            guard !state.isDone else { return nil }
            state.isDone = true
            guard let waiter = state.waiter else {
                state.result = result
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(with: result)
    }
}
