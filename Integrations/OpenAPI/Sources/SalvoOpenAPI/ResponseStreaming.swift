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
        guard let accept = accept?.lowercased() else { return false }
        return streamedTypes.contains { accept.contains($0) }
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
