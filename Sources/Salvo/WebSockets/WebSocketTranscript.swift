import Foundation

/// A WebSocket conversation as recorded: what the app sent and received, in order, and the
/// peer's close. Record one with ``WebSocketTransport/recording(through:into:)``, save it as JSON,
/// and replay it offline with ``MockWebSocketServer/replaying(_:clock:)``.
///
/// The handshake URL is kept redacted (``Redaction/default``), and no header is kept; message
/// contents are kept as sent, so record conversations whose messages hold no secrets.
///
/// ```swift
/// let recorder = WebSocketRecorder()
/// feed.transport = .recording(through: .webSocketClient(), into: recorder)
/// // … run the conversation, then:
/// try JSONEncoder().encode(recorder.transcript).write(to: fixtureURL)
/// ```
public struct WebSocketTranscript: Codable, Sendable, Hashable {
    /// One step of the conversation.
    public enum Event: Codable, Sendable, Hashable {
        /// The app sent a text message.
        case sentText(String)
        /// The app sent a binary message.
        case sentBinary(Data)
        /// The peer sent a text message.
        case receivedText(String)
        /// The peer sent a binary message.
        case receivedBinary(Data)
        /// The peer closed with a code and reason.
        case closed(code: UInt16, reason: String)
    }

    /// The handshake's URL, redacted.
    public var url: String
    /// The conversation, in order.
    public var events: [Event]

    /// A transcript from its parts.
    ///
    /// - Parameters:
    ///   - url: the handshake's URL, redacted.
    ///   - events: the conversation.
    public init(url: String, events: [Event]) {
        self.url = url
        self.events = events
    }
}

/// Collects the transcript of the connections a recording transport opens.
public final class WebSocketRecorder: Sendable {
    private let state = Locked(WebSocketTranscript(url: "", events: []))

    /// An empty recorder.
    public init() {}

    /// What was recorded so far.
    public var transcript: WebSocketTranscript { state.withLock { $0 } }

    func begin(_ url: URL) {
        state.withLock { $0.url = Redaction.default.redact(url).absoluteString }
    }

    func record(_ event: WebSocketTranscript.Event) {
        state.withLock { $0.events.append(event) }
    }
}

extension WebSocketTransport {
    /// Connections through `transport`, with everything sent and received recorded into `recorder`.
    ///
    /// - Parameters:
    ///   - transport: the transport that connects, e.g. `.webSocketClient()`.
    ///   - recorder: where the conversation goes.
    /// - Returns: the recording transport.
    public static func recording(through transport: WebSocketTransport, into recorder: WebSocketRecorder) -> WebSocketTransport {
        WebSocketTransport(name: "recording \(transport.name)") { handshake in
            let channel = try await transport.connect(handshake)
            recorder.begin(handshake.url)
            // Pulled through, one frame at a time, by whichever task reads: the inner transport's
            // backpressure and its answer to a cancelled read stay as they are.
            let receive: @Sendable () async throws -> WebSocketFrame? = {
                let frame = try await channel.receive()
                switch frame {
                case .message(.text(let text))?: recorder.record(.receivedText(text))
                case .message(.binary(let data))?: recorder.record(.receivedBinary(data))
                case .close(let close)?: recorder.record(.closed(code: close.code.rawValue, reason: close.reason))
                case .ping?, .pong?, nil: break
                }
                return frame
            }
            return WebSocketChannel(subprotocol: channel.subprotocol, receive: receive) { frame in
                switch frame {
                case .message(.text(let text)): recorder.record(.sentText(text))
                case .message(.binary(let data)): recorder.record(.sentBinary(data))
                case .ping, .pong, .close: break
                }
                try await channel.send(frame)
            }
        }
    }
}

extension MockWebSocketServer {
    /// A server that plays a recorded conversation back: it sends what the peer sent, waits for
    /// each message the app sent at that point, and closes as the peer closed.
    ///
    /// - Parameters:
    ///   - transcript: the recorded conversation.
    ///   - clock: what waits use.
    /// - Returns: the server; its log holds what the app sends in the replay.
    public static func replaying(_ transcript: WebSocketTranscript, clock: NetworkClock = .live) -> MockWebSocketServer {
        MockWebSocketServer(clock: clock) { peer in
            for event in transcript.events {
                switch event {
                case .receivedText(let text): try await peer.send(.text(text))
                case .receivedBinary(let data): try await peer.send(.binary(data))
                case .sentText, .sentBinary:
                    guard await peer.receive() != nil else { return }
                case .closed(let code, let reason):
                    await peer.close(WebSocketClose.Code(rawValue: code), reason: reason)
                    return
                }
            }
        }
    }
}
