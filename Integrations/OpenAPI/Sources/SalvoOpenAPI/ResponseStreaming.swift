/// Which operations' response bodies a ``SalvoTransport`` streams as they arrive rather than
/// reading them whole first.
///
/// ```swift
/// SalvoTransport(server: .api, streaming: .operations(["downloadReport"]))
/// ```
///
/// A streamed body is read from ``Salvo/NetCall/bytes()``: at most 4 MiB waits in memory for a
/// slow reader, and openapi-runtime's `asDecodedServerSentEvents`, `asDecodedJSONLines` and
/// `asDecodedJSONSequence` decode it as it comes.
public struct ResponseStreaming: Sendable {
    private let decide: @Sendable (_ operationID: String, _ accept: String?) -> Bool

    /// A policy from a closure given the operation's ID and the request's `Accept` field.
    public init(_ decide: @escaping @Sendable (_ operationID: String, _ accept: String?) -> Bool) {
        self.decide = decide
    }

    /// Whether the response of `operationID`, whose request accepts `accept`, is streamed.
    public func streams(operationID: String, accept: String?) -> Bool {
        decide(operationID, accept)
    }

    /// The media types whose bodies ``eventsLinesAndBinary`` streams.
    public static let streamedTypes = [
        "text/event-stream", "application/jsonl", "application/x-ndjson", "application/json-seq",
        "application/octet-stream",
    ]

    /// Streams operations that accept Server-Sent Events, JSON Lines, JSON Sequence or binary
    /// bodies (the generated client's `Accept` names the types the document declares): the default.
    public static let eventsLinesAndBinary = ResponseStreaming { _, accept in
        guard let accept else { return false }
        return mediaTypes(in: accept).contains { streamedTypes.contains($0) }
    }

    /// The media types an `Accept` field lists, lowercased, without parameters or weights.
    ///
    /// Plain `Substring` work: Foundation's `String.contains(_:)`, which this replaced, cost
    /// ~29k instructions per operation on Linux (CFString search), a third of what the transport added.
    static func mediaTypes(in accept: String) -> [String] {
        accept.split(separator: ",").map { item in
            let type = item.prefix { $0 != ";" }
            let start = type.firstIndex { !$0.isWhitespace } ?? type.endIndex
            let end = type.lastIndex { !$0.isWhitespace }.map(type.index(after:)) ?? start
            return type[start..<end].lowercased()
        }
    }

    /// Streams every response.
    public static let always = ResponseStreaming { _, _ in true }

    /// Reads every response whole.
    public static let never = ResponseStreaming { _, _ in false }

    /// Streams the operations with these IDs and reads the others whole.
    public static func operations(_ ids: Set<String>) -> ResponseStreaming {
        ResponseStreaming { id, _ in ids.contains(id) }
    }
}
