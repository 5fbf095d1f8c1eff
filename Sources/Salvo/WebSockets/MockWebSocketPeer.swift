import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's side of one mocked connection, handed to a ``MockWebSocketServer``'s script.
///
/// ```swift
/// MockWebSocketServer(clock: time.clock) { peer in
///     try await peer.send(.text("welcome"))
///     try await peer.sleep(for: 5)                       // a timer, on the injected clock
///     try await peer.send(.text("tick"))
///     await peer.close(.goingAway, reason: "restarting")
/// }
/// ```
public final class MockWebSocketPeer: Sendable {
    /// The handshake request as the server received it (after the app's actions).
    public let handshake: URLRequest
    /// The subprotocol the server chose.
    public let subprotocol: String?
    /// The connection's number on its server, counted from 0.
    public let connection: Int

    private struct State {
        var isOpen = true
        var appClose: WebSocketClose?
    }

    private let state = Locked(State())
    private let clock: NetworkClock
    private let log: MockWebSocketLog
    private let toApp: AsyncThrowingStream<WebSocketFrame, any Error>.Continuation
    private let fromApp: AsyncStream<WebSocketMessage>.Continuation
    private let inbox: Locked<AsyncStream<WebSocketMessage>.AsyncIterator?>
    let channel: WebSocketChannel

    init(handshake: URLRequest, subprotocol: String?, clock: NetworkClock, log: MockWebSocketLog, connection: Int) {
        self.handshake = handshake
        self.subprotocol = subprotocol
        self.clock = clock
        self.log = log
        self.connection = connection
        let (toAppStream, toApp) = AsyncThrowingStream<WebSocketFrame, any Error>.makeStream()
        let (fromAppStream, fromApp) = AsyncStream<WebSocketMessage>.makeStream()
        self.toApp = toApp
        self.fromApp = fromApp
        inbox = Locked(fromAppStream.makeAsyncIterator())
        let state = state
        channel = WebSocketChannel(subprotocol: subprotocol, inbound: toAppStream) { [log] frame in
            let isOpen = state.withLock { $0.isOpen }
            guard isOpen else {
                throw WebSocketFailure.connectionLost("the mock peer has closed the connection")
            }
            switch frame {
            case .message(let message):
                log.record(.message(message), connection: connection)
                fromApp.yield(message)
            case .ping(let payload):
                log.record(.ping(payload), connection: connection)
                toApp.yield(.pong(payload))
            case .pong:
                break
            case .close(let close):
                log.record(.close(close), connection: connection)
                state.withLock {
                    $0.isOpen = false
                    $0.appClose = close
                }
                fromApp.finish()
                toApp.yield(.close(close))  // the closing handshake: the server echoes the code
                toApp.finish()
            }
        }
    }

    /// The app's close, once it closed.
    public var appClose: WebSocketClose? { state.withLock { $0.appClose } }

    /// The next message the app sends; `nil` once the app closed or the peer ended the connection.
    ///
    /// - Returns: the message, or `nil`.
    public func receive() async -> WebSocketMessage? {
        // One script reads one connection, so the iterator is never read from two tasks at once.
        var iterator = inbox.withLock { $0.take() }
        defer { inbox.withLock { $0 = iterator } }
        return await iterator?.next()
    }

    /// Sends a message to the app.
    ///
    /// - Parameter message: the message.
    /// - Throws: `CancellationError` when the connection is no longer open, so a script stops.
    public func send(_ message: WebSocketMessage) async throws {
        guard state.withLock({ $0.isOpen }) else { throw CancellationError() }
        toApp.yield(.message(message))
    }

    /// Sends a text message to the app.
    ///
    /// - Parameter text: the text.
    /// - Throws: `CancellationError` when the connection is no longer open.
    public func send(_ text: String) async throws {
        try await send(.text(text))
    }

    /// Sends a value as a JSON text message.
    ///
    /// - Parameter value: the value.
    /// - Throws: its encoding error, or `CancellationError` when the connection is no longer open.
    public func send(json value: some Encodable) async throws {
        try await send(.text(String(decoding: try JSONEncoder().encode(value), as: UTF8.self)))
    }

    /// Waits on the server's clock: a `TestClock` moves it on without waiting.
    ///
    /// - Parameter seconds: how long.
    /// - Throws: `CancellationError` when the wait is cancelled.
    public func sleep(for seconds: TimeInterval) async throws {
        try await clock.sleep(for: seconds)
    }

    /// Closes the connection from the server's side with a code and reason.
    ///
    /// - Parameters:
    ///   - code: the code, `1000` unless given.
    ///   - reason: the reason.
    public func close(_ code: WebSocketClose.Code = .normalClosure, reason: String = "") async {
        guard end() else { return }
        toApp.yield(.close(WebSocketClose(code, reason: reason)))
        toApp.finish()
    }

    /// Ends the connection without a close frame, as a dropped TCP connection does.
    ///
    /// - Parameter reason: what the app's error says happened.
    public func drop(because reason: String = "the mock peer dropped the connection") {
        guard end() else { return }
        toApp.finish(throwing: WebSocketFailure.connectionLost(reason))
    }

    private func end() -> Bool {
        let wasOpen = state.withLock { state in
            defer { state.isOpen = false }
            return state.isOpen
        }
        if wasOpen { fromApp.finish() }
        return wasOpen
    }
}
