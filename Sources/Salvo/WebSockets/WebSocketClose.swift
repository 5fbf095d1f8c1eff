import Foundation

/// A close frame's code and reason: what the app sends with ``WebSocketConnection/close(_:reason:)``
/// and what ``WebSocketConnection/peerClose`` says the peer sent.
///
/// ```swift
/// if let close = connection.peerClose, close.code == .goingAway { showReconnecting() }
/// ```
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// The status code (RFC 6455, section 7.4).
    public var code: Code
    /// The reason, UTF-8 text of at most 123 bytes; often empty.
    public var reason: String

    /// A close with a code and a reason.
    ///
    /// - Parameters:
    ///   - code: the status code.
    ///   - reason: the reason; one longer than 123 UTF-8 bytes is cut at a character boundary when sent.
    public init(_ code: Code, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// `1000` and the reason, e.g. `1009 (message too big): limit 1048576 bytes`.
    public var description: String {
        reason.isEmpty ? "\(code)" : "\(code): \(reason)"
    }

    /// The reason cut to the 123 bytes a close frame can carry, never inside a character.
    var sendableReason: String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + String(character).utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }

    /// A WebSocket close status code (RFC 6455, section 7.4.1, and the IANA registry).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The number sent in the close frame.
        public var rawValue: UInt16

        /// A code from its number; `3000`–`4999` are for libraries and applications.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 1000: the purpose of the connection is fulfilled.
        public static let normalClosure = Code(rawValue: 1000)
        /// 1001: the endpoint is going away (a server shutting down, a page left).
        public static let goingAway = Code(rawValue: 1001)
        /// 1002: the peer broke the protocol.
        public static let protocolError = Code(rawValue: 1002)
        /// 1003: a message of a type the endpoint cannot accept.
        public static let unsupportedData = Code(rawValue: 1003)
        /// 1005: the close frame had no code (never sent, only reported).
        public static let noStatusReceived = Code(rawValue: 1005)
        /// 1006: the connection ended without a close frame (never sent, only reported).
        public static let abnormalClosure = Code(rawValue: 1006)
        /// 1007: a text message that is not valid UTF-8, or data inconsistent with its type.
        public static let invalidFramePayloadData = Code(rawValue: 1007)
        /// 1008: a message that violates the endpoint's policy.
        public static let policyViolation = Code(rawValue: 1008)
        /// 1009: a message too big to process.
        public static let messageTooBig = Code(rawValue: 1009)
        /// 1011: the server met an unexpected condition.
        public static let internalServerError = Code(rawValue: 1011)
        /// 1012: the server is restarting.
        public static let serviceRestart = Code(rawValue: 1012)
        /// 1013: try again later.
        public static let tryAgainLater = Code(rawValue: 1013)

        /// Whether an endpoint may put this code in a close frame (RFC 6455, 7.4): `1000`–`1003`,
        /// `1007`–`1014` and `3000`–`4999`.
        public var isSendable: Bool {
            switch rawValue {
            case 1000...1003, 1007...1014, 3000...4999: true
            default: false
            }
        }

        /// Whether a close with this code means "come back later" rather than "stop": going away,
        /// abnormal closure, internal error, service restart, try again later. Reconnection
        /// (``WebSocketCall/reconnection``) reconnects after these only.
        public var isTransient: Bool {
            [1001, 1006, 1011, 1012, 1013].contains(rawValue)
        }

        /// The number and its name, e.g. `1009 (message too big)`.
        public var description: String {
            let name: String? = switch rawValue {
            case 1000: "normal closure"
            case 1001: "going away"
            case 1002: "protocol error"
            case 1003: "unsupported data"
            case 1005: "no status received"
            case 1006: "abnormal closure"
            case 1007: "invalid frame payload data"
            case 1008: "policy violation"
            case 1009: "message too big"
            case 1011: "internal server error"
            case 1012: "service restart"
            case 1013: "try again later"
            default: nil
            }
            return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
        }
    }
}
