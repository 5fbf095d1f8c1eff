import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
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
        // Salvo's reading task (or the app's loop) reads WSClient's messages itself, pulled through
        // `reader`: no task hop and no queue between WSClient and Salvo (the socket is read as
        // fast as Salvo reads).
        // WSClient's closure only keeps the connection open until that reading is over.
        let reader = InboundReader()
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
            try await reader.serve(messages.messages(maxSize: limit).makeAsyncIterator()) {
                // Only the channel holds the token: when Salvo drops it, the connection stops.
                let token = Abandonment { [weak reader] in reader?.abandon() }
                opened.succeed(WebSocketChannel(receive: { [token] in
                    withExtendedLifetime(token) {}
                    return try await reader.next()
                }) { [token] frame in
                    withExtendedLifetime(token) {}
                    try await write(frame, to: outbound)
                    // Salvo may read no more after its close: WSClient reads the peer's answer itself.
                    if case .close = frame { reader.release() }
                })
            }
        }
        let run = Task {
            do {
                let close = try await client.run()
                let frame = close.map { close in
                    Salvo.WebSocketFrame.close(WebSocketClose(WebSocketClose.Code(rawValue: number(of: close.closeCode)), reason: close.reason ?? ""))
                }
                opened.fail(failure(nil, limit: limit))
                reader.runEnded(.success(frame))
            } catch {
                let failure = failure(error, limit: limit)
                opened.fail(failure)
                reader.runEnded(.failure(failure))
            }
        }
        reader.onAbandon { run.cancel() }
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

/// WSClient's inbound messages as Salvo's frames, read by whichever task calls the channel's
/// `receive` (Salvo's reader or the app's loop), not by WSClient's closure, which waits in ``serve(_:opened:)`` until that
/// reading is over: a message reaches Salvo's reader without a hop between tasks. After the last
/// message comes what WSClient's `run()` ended with: the peer's close frame, or its error.
private final class InboundReader: @unchecked Sendable {
    // Safe: every stored property is read and written only under `lock`. The iterator is taken out
    // under it for each read and put back after, so it is never used by two tasks at once
    // (Salvo calls `receive` once at a time), and WSClient's closure returns
    // only once no read holds it.
    private let lock = NSLock()
    private var iterator: WebSocketInboundMessageStream.AsyncIterator?
    private var isReading = false
    private var readEnd: Result<Void, any Error>?
    private var server: CheckedContinuation<Void, any Error>?
    private var runEnd: Result<Salvo.WebSocketFrame?, any Error>?
    private var runWaiter: CheckedContinuation<Salvo.WebSocketFrame?, any Error>?
    private var isOver = false
    private var abandoned: (@Sendable () -> Void)?

    /// Runs `action` when the channel is dropped (after the reading ended, or before it began).
    func onAbandon(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { abandoned = action }
    }

    /// WSClient's closure: hands over the iterator, runs `opened`, and waits until the reading is
    /// over; rethrows what the read threw, so WSClient closes with its code.
    func serve(_ iterator: WebSocketInboundMessageStream.AsyncIterator, opened: () -> Void) async throws {
        lock.withLock { self.iterator = iterator }
        opened()
        try await withCheckedThrowingContinuation { (server: CheckedContinuation<Void, any Error>) in
            let end = lock.withLock { () -> Result<Void, any Error>? in
                if readEnd == nil { self.server = server }
                return readEnd
            }
            if let end { server.resume(with: end) }
        }
    }

    /// The next frame: a message, then the close frame, then `nil`; or the run's error.
    func next() async throws -> Salvo.WebSocketFrame? {
        let taken = lock.withLock { () -> WebSocketInboundMessageStream.AsyncIterator? in
            guard readEnd == nil, let iterator else { return nil }
            self.iterator = nil
            isReading = true
            return iterator
        }
        if var iterator = taken {
            do {
                if let message = try await iterator.next() {
                    lock.withLock {
                        self.iterator = iterator
                        isReading = false
                    }
                    return .message(Self.message(message))
                }
                endReading(.success(()))
            } catch {
                // Salvo reads in the app's task when the app's loop waits (see WebSocketInbox): a
                // read cancelled with it ends NIO's inbound stream. WSClient then closes with 1000,
                // as for an app leaving its loop, not with 1011 for an error.
                endReading(Task.isCancelled ? .success(()) : .failure(error))
            }
        }
        return try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Salvo.WebSocketFrame?, any Error>) in
            let end = lock.withLock { () -> Result<Salvo.WebSocketFrame?, any Error>? in
                if isOver { return .success(nil) }
                guard let runEnd else {
                    runWaiter = waiter
                    return nil
                }
                isOver = true
                return runEnd
            }
            if let end { waiter.resume(with: end) }
        }
    }

    /// WSClient's `run()` ended: with the peer's close frame (if any), or an error.
    func runEnded(_ end: Result<Salvo.WebSocketFrame?, any Error>) {
        let waiter = lock.withLock { () -> CheckedContinuation<Salvo.WebSocketFrame?, any Error>? in
            runEnd = end
            // Nothing can be read any more: a closure still waiting need not.
            guard let waiter = runWaiter else { return nil }
            runWaiter = nil
            isOver = true
            return waiter
        }
        waiter?.resume(with: end)
    }

    private func endReading(_ end: Result<Void, any Error>) {
        let server = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            isReading = false
            iterator = nil
            guard readEnd == nil else { return nil }
            readEnd = end
            defer { self.server = nil }
            return self.server
        }
        server?.resume(with: end)
    }

    /// Salvo sent its close: unless a read is under way (which ends with the peer's answer),
    /// WSClient's closure returns and WSClient reads the closing handshake itself; a later read
    /// gets what the run ended with.
    func release() {
        let server = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
            guard !isReading, readEnd == nil else { return nil }
            iterator = nil
            readEnd = .success(())
            defer { self.server = nil }
            return self.server
        }
        server?.resume()
    }

    /// The channel was dropped: released as after a close, and the connection stopped.
    func abandon() {
        release()
        lock.withLock { abandoned }?()
    }

    /// WSClient's message as Salvo's; a large binary message shares the buffer's bytes rather
    /// than copying them (NIO's `.automatic`: copied up to 256 KiB).
    private static func message(_ message: WSCore.WebSocketMessage) -> Salvo.WebSocketMessage {
        switch message {
        case .text(let text): .text(text)
        case .binary(let buffer):
            .binary(buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes, byteTransferStrategy: .automatic) ?? Data(buffer.readableBytesView))
        }
    }
}

/// Runs its action when released: held only by a channel's `receive` and `send`.
private final class Abandonment: Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    deinit { action() }
}

/// The channel handed from inside WSClient's closure to the `connect` that waits for it, once.
/// It lets go of the channel once handed over, so that a channel Salvo drops is gone (it is then
/// abandoned and the connection stopped).
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
