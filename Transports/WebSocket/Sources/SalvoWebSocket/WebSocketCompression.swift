import WSClient
import WSCompression

/// The compression a `.webSocketClient()` connection offers in its handshake.
///
/// permessage-deflate (RFC 7692) compresses each message with zlib; the server decides: one that
/// does not support it answers without the extension and messages go uncompressed. It is offered
/// unless the transport is given `.none`:
///
/// ```swift
/// feed.transport = .webSocketClient()                      // offers permessage-deflate
/// feed.transport = .webSocketClient(compression: .none)    // already-compressed payloads
/// ```
public struct WebSocketCompression: Sendable, Hashable {
    /// The window size in bits (8–15), or `nil` for zlib's largest (15, 32 KiB); `nil` when off.
    let windowBits: Int?
    /// Whether each message starts with an empty window; `nil` when compression is off.
    let noContextTakeover: Bool?

    /// No extension is offered: every message goes as it is.
    public static let none = WebSocketCompression(windowBits: nil, noContextTakeover: nil)

    /// permessage-deflate, with the window both sides compress with.
    ///
    /// - Parameters:
    ///   - maximumWindowBits: the largest LZ77 window, 8 to 15 bits (256 B to 32 KiB), asked of
    ///     both sides (`client_max_window_bits`, `server_max_window_bits`); `nil` for 15. Values
    ///     outside are clamped. Smaller saves memory per connection and compresses less.
    ///   - noContextTakeover: `true` to ask both sides to compress each message on its own
    ///     (`client_no_context_takeover`, `server_no_context_takeover`): no window kept between
    ///     messages, so less memory and a worse ratio on streams of similar messages.
    /// - Returns: the offer.
    public static func permessageDeflate(maximumWindowBits: Int? = nil, noContextTakeover: Bool = false) -> WebSocketCompression {
        WebSocketCompression(windowBits: maximumWindowBits.map { min(15, max(8, $0)) }, noContextTakeover: noContextTakeover)
    }

    /// WSClient's extensions for this offer; a decompressed message may be as large as the call allows.
    func extensions(maximumMessageSize limit: Int) -> [WebSocketExtensionFactory] {
        guard let noContextTakeover else { return [] }
        return [.perMessageDeflate(maxWindow: windowBits, noContextTakeover: noContextTakeover, maxDecompressedFrameSize: max(1 << 14, limit))]
    }
}
