import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An open WebSocket: send messages, read ``messages``, ping, close.
///
/// The connection reads what the peer sends as it arrives and keeps it for ``messages`` in order;
/// while ``WebSocketCall/maximumUnreadMessages`` wait unread it stops reading from the peer
/// (backpressure), so a fast peer and a slow reader hold a bounded number of messages. Once the
/// loop over ``messages`` waits for a message, the loop reads the peer itself while it waits; when
/// it then asks for none for half a second, the connection reads ahead again.
/// It ends when the app closes it, when the peer closes it (``peerClose`` then says why and the
/// messages end without an error), when it fails (the messages throw a ``NetworkError`` naming the
/// URL), or when the task reading its messages is cancelled or leaves the loop (it closes with 1000).
///
/// With ``WebSocketCall/reconnection`` set, a connection that drops (a transport error, no close
/// frame, or a close whose code ``WebSocketClose/Code/isTransient``) is opened again after the
/// policy's wait, ``WebSocketCall/resubscribe`` runs on it, and the messages go on. A connection
/// that delivered messages before it dropped reconnects without counting a failure; handshakes
/// that fail count, and past the policy's `maximumFailures` the messages throw the last error.
///
/// ```swift
/// let chat = try await call.connect()
/// try await chat.send("hello")
/// for try await message in chat.messages { transcript.append(message) }
/// print(chat.peerClose ?? WebSocketClose(.abnormalClosure))
/// ```
public final class WebSocketConnection: Sendable {
    /// The handshake's URL (`ws` or `wss`).
    public let url: URL
    /// Everything the peer sends, in order; read it once.
    public let messages: WebSocketMessages

    private struct State {
        var channel: WebSocketChannel?
        var subprotocol: String?
        var peerClose: WebSocketClose?
        var isClosedByApp = false
        var pump: Task<Void, Never>?
    }

    private enum End {
        case closed(WebSocketClose?)
        case failed(NetworkError, isTransient: Bool)
    }

    private let call: WebSocketCall
    private let state: Locked<State>
    /// What the reader hands the app's loop through (visible to tests, which watch the hand-over).
    let inbox: WebSocketInbox

    /// The reader's task: it ends once the connection is over (for tests).
    var reader: Task<Void, Never>? { state.withLock { $0.pump } }

    init(call: WebSocketCall, channel: WebSocketChannel, url: URL) {
        self.call = call
        self.url = url
        let inbox = WebSocketInbox(limit: call.maximumUnreadMessages)
        self.inbox = inbox
        messages = WebSocketMessages(inbox)
        state = Locked(State(channel: channel, subprotocol: channel.subprotocol))
        // Leaving the loop or cancelling its task closes the connection with 1000: marked closed
        // at once, so that the reader, seeing the channel end next, does not reconnect.
        inbox.onCancel { [weak self] in
            guard let self, let channel = self.beginClosing() else { return }
            Task { try? await channel.send(.close(WebSocketClose(.normalClosure))) }
        }
        let pump = Task { await self.run(first: channel) }
        state.withLock { $0.pump = pump }
    }

    /// The subprotocol the server chose, `nil` when it chose none or the call offered none.
    public var subprotocol: String? { state.withLock { $0.subprotocol } }

    /// The decoder typed messages use unless given one.
    var serverDecoder: JSONDecoder { call.server.decoder }

    /// The peer's close frame: its code and reason, once the peer has closed.
    public var peerClose: WebSocketClose? { state.withLock { $0.peerClose } }

    /// Sends a message.
    ///
    /// - Parameter message: a text or binary message.
    /// - Throws: ``NetworkError/transport(_:)`` naming the URL when the connection is closed,
    ///   reconnecting, or the write fails.
    public func send(_ message: WebSocketMessage) async throws(NetworkError) {
        try await write(.message(message))
    }

    /// Sends a text message.
    ///
    /// - Parameter text: the text.
    /// - Throws: ``NetworkError/transport(_:)`` when the connection cannot send.
    public func send(_ text: String) async throws(NetworkError) {
        try await write(.message(.text(text)))
    }

    /// Sends a binary message.
    ///
    /// - Parameter data: the bytes.
    /// - Throws: ``NetworkError/transport(_:)`` when the connection cannot send.
    public func send(_ data: Data) async throws(NetworkError) {
        try await write(.message(.binary(data)))
    }

    /// Sends a value as a JSON text message, encoded with the call's `encoder` where you call it.
    ///
    /// - Parameter value: the value; it need not be `Sendable`.
    /// - Throws: ``NetworkError/invalidRequest(_:)`` (part `.body`) when it does not encode,
    ///   ``NetworkError/transport(_:)`` when the connection cannot send.
    public func send(_ value: some Encodable) async throws(NetworkError) {
        let data: Data
        do {
            data = try call.encoder.encode(value)
        } catch {
            throw .invalidRequest(RequestProblem(.body, "\(type(of: value)) could not be encoded as JSON: \(error)"))
        }
        try await write(.message(.text(String(decoding: data, as: UTF8.self))))
    }

    /// Sends a ping; the transport answers the peer's pings itself.
    ///
    /// - Parameter payload: at most 125 bytes; longer payloads are cut.
    /// - Throws: ``NetworkError/transport(_:)`` when the connection cannot send.
    public func ping(_ payload: Data = Data()) async throws(NetworkError) {
        try await write(.ping(payload.prefix(125)))
    }

    /// Closes the connection: sends a close frame and ends the messages once the peer answers.
    /// A second close does nothing.
    ///
    /// - Parameters:
    ///   - code: the code, `1000` unless given; one an endpoint may not send (``WebSocketClose/Code/isSendable``) is sent as `1000`.
    ///   - reason: the reason; cut to 123 UTF-8 bytes at a character boundary.
    public func close(_ code: WebSocketClose.Code = .normalClosure, reason: String = "") async {
        guard let channel = beginClosing() else { return }
        let frame = WebSocketClose(code.isSendable ? code : .normalClosure, reason: reason)
        try? await channel.send(.close(WebSocketClose(frame.code, reason: frame.sendableReason)))
    }

    /// Marks the connection closed by the app, once: the channel to send the close on, `nil` when
    /// closed already or waiting to reconnect (the reader's wait is cancelled then).
    private func beginClosing() -> WebSocketChannel? {
        let (channel, pump) = state.withLock { state -> (WebSocketChannel?, Task<Void, Never>?) in
            guard !state.isClosedByApp else { return (nil, nil) }
            state.isClosedByApp = true
            return (state.channel, state.pump)
        }
        // The closing handshake needs the peer read, whether or not the app reads on.
        inbox.release()
        if channel == nil { pump?.cancel() }
        return channel
    }

    private func write(_ frame: WebSocketFrame) async throws(NetworkError) {
        let channel = state.withLock { $0.isClosedByApp ? nil : $0.channel }
        guard let channel else {
            throw .transport(URLError(.networkConnectionLost, userInfo: [
                NSURLErrorFailingURLErrorKey: url,
                NSLocalizedDescriptionKey: "the WebSocket connection to \(Redaction.default.redact(url).absoluteString) is not open (closed, or waiting to reconnect)",
            ]))
        }
        do {
            try await channel.send(frame)
        } catch {
            throw Task.isCancelled ? .cancelled : WebSocketCall.networkError(error, url: url)
        }
    }

    // MARK: - Reading and reconnecting

    private func run(first: WebSocketChannel) async {
        var channel = first
        var failures = 0
        while true {
            let clock = call.reconnection?.clock ?? .live
            let openedAt = clock.now()
            let (end, deliveredMessages) = await read(channel)
            let isClosedByApp = state.withLock { state in
                state.channel = nil
                return state.isClosedByApp
            }
            let (error, isTransient): (NetworkError?, Bool) = switch end {
            case .closed(let close?): (nil, close.code.isTransient)
            case .closed(nil) where isClosedByApp: (nil, false)
            case .closed(nil): (WebSocketCall.networkError(WebSocketFailure.connectionLost("the connection ended"), url: url), true)
            case .failed(let error, let isTransient): (error, isTransient)
            }
            guard !isClosedByApp, isTransient, let policy = call.reconnection, !Task.isCancelled else {
                finish(error)
                return
            }
            // A connection that delivered messages or lasted is resumed; one that dropped at once failed.
            if deliveredMessages || clock.now() - openedAt >= policy.backoffResetInterval { failures = 0 } else { failures += 1 }
            guard let next = await reconnect(policy: policy, failures: &failures, lastError: error) else { return }
            channel = next
        }
    }

    /// Reads one channel until it ends, or hands it to the app's loop and processes what comes back
    /// (see `WebSocketInbox`); whether any message arrived on it.
    private func read(_ channel: WebSocketChannel) async -> (End, Bool) {
        let source = WebSocketInbox.Source(channel, maximumMessageSize: call.maximumMessageSize)
        var close: WebSocketClose?
        var handedBack: Result<WebSocketFrame?, any Error>?
        do {
            while true {
                let frame: WebSocketFrame?
                if let handed = handedBack {
                    handedBack = nil
                    frame = try handed.get()
                } else {
                    frame = try await source.next()
                }
                switch frame {
                case .message(let message)?:
                    guard message.count <= call.maximumMessageSize else {
                        try? await channel.send(.close(WebSocketClose(.messageTooBig)))
                        return (.failed(WebSocketCall.networkError(WebSocketFailure.messageTooBig(limit: call.maximumMessageSize), url: url), isTransient: false), source.hasDelivered)
                    }
                    source.hasDelivered = true
                    if case .process(let next) = await inbox.yield(message, from: source) { handedBack = next }
                case .close(let frame)?:
                    close = frame
                    state.withLock { $0.peerClose = frame }
                case .ping?, .pong?:
                    break
                case nil:
                    return (.closed(close), source.hasDelivered)
                }
            }
        } catch {
            let isTransient = switch error as? WebSocketFailure {
            case .messageTooBig, .invalidUTF8, .protocolError, .handshakeRefused: false
            case .connectionLost, nil: true
            }
            return (.failed(WebSocketCall.networkError(error, url: url), isTransient: isTransient), source.hasDelivered)
        }
    }

    private func reconnect(policy: ReconnectionPolicy, failures: inout Int, lastError: NetworkError?) async -> WebSocketChannel? {
        var lastError = lastError
        while true {
            guard failures <= policy.maximumFailures, policy.maximumFailures > 0 else {
                finish(lastError)
                return nil
            }
            do {
                try await policy.clock.sleep(for: policy.wait(before: failures, reconnectionTime: policy.delay))
            } catch {
                finish(state.withLock { $0.isClosedByApp } ? nil : .cancelled)
                return nil
            }
            do {
                let (channel, _) = try await call.open()
                let isClosedByApp = state.withLock { state in
                    if !state.isClosedByApp {
                        state.channel = channel
                        state.subprotocol = channel.subprotocol
                        state.peerClose = nil
                    }
                    return state.isClosedByApp
                }
                if isClosedByApp {
                    try? await channel.send(.close(WebSocketClose(.normalClosure)))
                    finish(nil)
                    return nil
                }
                if let resubscribe = call.resubscribe { try await resubscribe(self) }
                return channel
            } catch {
                failures += 1
                lastError = NetworkError(error)
                if Task.isCancelled {
                    finish(.cancelled)
                    return nil
                }
            }
        }
    }

    private func finish(_ error: NetworkError?) {
        inbox.finish(throwing: error)
    }
}
