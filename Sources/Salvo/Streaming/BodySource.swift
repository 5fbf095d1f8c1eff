import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One firing's body as it arrives, chunk by chunk: what ``NetCall/bytes()`` reads. The firing
/// started when the stream was made; its buffer holds what the reader has not taken yet.
struct BodySource: StreamSource {
    let stream: StreamHandle

    func makeReader() -> ChunkReader {
        ChunkReader(stream: stream)
    }
}

/// Reads a body's chunks in order; when it goes away (the loop ended or was left), the call is
/// cancelled unless it already finished.
struct ChunkReader: StreamReader {
    private let reading: Reading

    init(stream: StreamHandle) {
        reading = Reading(stream: stream)
    }

    /// The next chunk, `nil` after the last; throws the error that ended the call.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data? {
        try await reading.stream.buffer.next()
    }

    /// The response head the body came with; throws the call's error when none arrived.
    func head() async throws(NetworkError) -> ResponseHead {
        try await reading.stream.buffer.head()
    }
}

extension ResponseStream where Element == Data {
    /// The response head (status, headers, final URL) as soon as it arrives.
    ///
    /// ```swift
    /// let body = call.bytes()
    /// let head = try await body.head              // status and headers, before the first byte
    /// for try await chunk in body { file.write(chunk) }
    /// ```
    ///
    /// - Throws: the call's error when it failed before a head or with a status outside 200–299;
    ///   ``NetworkError/invalidRequest(_:)`` for values decoded from an event stream, which has a
    ///   head per connection (its ``ResponseStream/activity`` says when each opens).
    public var head: ResponseHead {
        get async throws(NetworkError) {
            guard let body = source as? BodySource else {
                throw .invalidRequest(RequestProblem(.body, "an event stream has a head per connection, not one; read the head of bytes()"))
            }
            return try await body.stream.buffer.head()
        }
    }

    /// The firing whose body this is, to cancel it or ask whether it finished; `nil` for values
    /// decoded from an event stream, which fires a call per connection.
    public var task: NetworkTask? {
        (source as? BodySource)?.stream.task
    }
}

/// One iteration of a stream: cancels the call when the iteration ends, so leaving a loop early
/// stops the download, and drops what it left unread (the backlog file too), even while the
/// sequence itself is still kept.
private final class Reading: Sendable {
    let stream: StreamHandle

    init(stream: StreamHandle) {
        self.stream = stream
    }

    deinit {
        stream.buffer.cancel()
    }
}

/// One streamed firing and its buffer, shared by a sequence and its iterators: when the last of
/// them goes away the call is cancelled (a no-op once it has finished).
final class StreamHandle: Sendable {
    let buffer: BodyBuffer
    let task: NetworkTask

    init(buffer: BodyBuffer, task: NetworkTask) {
        self.buffer = buffer
        self.task = task
    }

    deinit {
        task.cancel()
    }
}
