import Foundation
import Logging
import NIOCore
import NIOPosix
import Salvo
import SalvoWebSocket
import WSClient
import WSCompression

/// Benchmarks ws1 and ws2 (issue 40): messages echoed by a peer over one open WebSocket, through
/// Salvo's `WebSocketCall` on the Linux transport (`.webSocketClient()`) and through the raw
/// `WSClient` under it, each side on a connection of its own to the same peer.
///
/// Each side's connection stays open for the whole run and is read by one task of its own (for
/// the raw client, the closure `WSClient` runs for the connection's life); a batch is handed to
/// that task and the caller waits for it, so both sides pay the same one hand-over per batch. In
/// a batch the task sends `count` messages, at most `window` ahead of the echoes it has read, and
/// reads every echo: with a window of 1, round trips; wider, throughput.
///
/// Both sides open the connection with the configuration Salvo's transport uses (frames up to the
/// message limit, permessage-deflate offered, UTF-8 validated, `messages(maxSize:)`); the peer
/// negotiates no extension.
public final class WebSocketEcho: Sendable {
    /// A message's size in bytes.
    public let messageBytes: Int
    /// Messages sent ahead of the echoes read.
    public let window: Int
    /// Whether the messages are binary (`Data` / `ByteBuffer`) rather than text.
    public let isBinary: Bool
    private let connection: WebSocketConnection
    private let salvoBatches: AsyncStream<Batch>.Continuation
    private let rawBatches: AsyncStream<Batch>.Continuation
    private let rawRun: Task<Void, Never>

    /// A batch handed to a side's reading task.
    private struct Batch: Sendable {
        let count: Int
        let done: CheckedContinuation<Void, any Error>
    }

    /// Opens both sides' connections to `baseURL` (a `ws` URL of an echo server).
    ///
    /// - Parameters:
    ///   - baseURL: the echo server, e.g. ``WebSocketEchoServer/baseURL``.
    ///   - messageBytes: each message's size.
    ///   - isBinary: binary messages rather than text.
    ///   - window: messages in flight; 1 for round trips.
    public init(baseURL: URL, messageBytes: Int, isBinary: Bool, window: Int) async throws {
        self.messageBytes = messageBytes
        self.isBinary = isBinary
        self.window = max(1, window)
        let limit = max(messageBytes, 1 << 20)
        let text = String(repeating: "s", count: messageBytes)
        let data = Data(repeating: 0x73, count: messageBytes)
        let buffer = ByteBuffer(bytes: data)
        let window = self.window

        // Salvo: a WebSocketCall over the Linux transport, its defaults but the message limit.
        let server = ServerConfig(scheme: "ws", host: baseURL.host ?? "127.0.0.1", port: baseURL.port)
        var call = WebSocketCall(server: server, endpoint: .get("/echo"), maximumMessageSize: limit)
        call.transport = .webSocketClient()
        let connection = try await call.connect()
        self.connection = connection
        let (salvoStream, salvoBatches) = AsyncStream<Batch>.makeStream()
        self.salvoBatches = salvoBatches
        Task {
            var messages = connection.messages.makeAsyncIterator()
            for await batch in salvoStream {
                do {
                    try await Self.exchange(batch.count, window: window, bytes: messageBytes) {
                        if isBinary { try await connection.send(data) } else { try await connection.send(text) }
                    } receive: {
                        try await messages.next()?.count
                    }
                    batch.done.resume()
                } catch {
                    batch.done.resume(throwing: error)
                }
            }
        }

        // Raw WSClient: the same configuration as Salvo's transport builds, the same peer.
        let (rawStream, rawBatches) = AsyncStream<Batch>.makeStream()
        self.rawBatches = rawBatches
        let (opened, openedInput) = AsyncStream<Void>.makeStream()
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: limit,
            extensions: [.perMessageDeflate(maxDecompressedFrameSize: limit)],
            validateUTF8: true
        )
        let client = WebSocketClient(
            url: baseURL.appendingPathComponent("echo").absoluteString,
            configuration: configuration,
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: Logger(label: "bench.raw", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { inbound, outbound, _ in
            openedInput.yield()
            var messages = inbound.messages(maxSize: limit).makeAsyncIterator()
            for await batch in rawStream {
                do {
                    try await Self.exchange(batch.count, window: window, bytes: messageBytes) {
                        try await outbound.write(isBinary ? .binary(buffer) : .text(text))
                    } receive: {
                        switch try await messages.next() {
                        case .text(let text)?: text.utf8.count
                        case .binary(let buffer)?: buffer.readableBytes
                        case nil: nil
                        }
                    }
                    batch.done.resume()
                } catch {
                    batch.done.resume(throwing: error)
                }
            }
        }
        rawRun = Task {
            _ = try? await client.run()
            openedInput.finish()
        }
        var isOpen = false
        for await _ in opened {
            isOpen = true
            break
        }
        guard isOpen else {
            await connection.close()
            salvoBatches.finish()
            rawBatches.finish()
            throw WorkloadError("the raw WSClient could not connect to \(baseURL)")
        }
    }

    /// Salvo's side: `count` messages sent with `WebSocketConnection.send` and read from `messages`.
    public func salvo(count: Int) async throws {
        try await withCheckedThrowingContinuation { salvoBatches.yield(Batch(count: count, done: $0)) }
    }

    /// The raw side: `count` messages written with WSClient's outbound writer and read from its
    /// inbound `messages(maxSize:)`.
    public func raw(count: Int) async throws {
        try await withCheckedThrowingContinuation { rawBatches.yield(Batch(count: count, done: $0)) }
    }

    /// Closes both connections.
    public func close() async {
        salvoBatches.finish()
        rawBatches.finish()
        await connection.close()
        await rawRun.value
    }

    /// Sends `count` messages, at most `window` ahead of the echoes, and reads all the echoes,
    /// each of which must be `bytes` long.
    private static func exchange(
        _ count: Int,
        window: Int,
        bytes: Int,
        send: () async throws -> Void,
        receive: () async throws -> Int?
    ) async throws {
        var sent = 0
        var received = 0
        while received < count {
            while sent < count, sent - received < window {
                try await send()
                sent += 1
            }
            guard let size = try await receive() else {
                throw WorkloadError("the WebSocket connection ended after \(received) of \(count) echoes")
            }
            guard size == bytes else { throw WorkloadError("an echo of \(size) bytes, not \(bytes)") }
            received += 1
        }
    }
}
