import Foundation

/// One WebSocket message, whole: text or binary, however many frames it came in.
///
/// ```swift
/// for try await message in connection.messages {
///     if case .text(let text) = message { log.append(text) }
/// }
/// ```
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (opcode 1), valid UTF-8.
    case text(String)
    /// A binary message (opcode 2).
    case binary(Data)

    /// The message's bytes: a text message's UTF-8.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    /// The message's size in bytes, as counted against ``WebSocketCall/maximumMessageSize``.
    public var count: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    /// Decodes the message (text or binary) as JSON.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder, e.g. the server's `decoder`.
    /// - Returns: the decoded value.
    /// - Throws: ``NetworkError/decoding(_:)`` carrying the message's bytes.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws(NetworkError) -> Value {
        let bytes = data
        do {
            return try decoder.decode(Value.self, from: bytes)
        } catch {
            throw .decoding(DecodingProblem(error, body: bytes, type: Value.self))
        }
    }
}
