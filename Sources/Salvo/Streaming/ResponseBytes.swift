import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A call's response body as it arrives: an `AsyncSequence` of chunks, read once.
///
/// ```swift
/// let body = call.bytes()
/// let head = try await body.head              // status and headers, before the first byte
/// for try await chunk in body { file.write(chunk) }
/// ```
///
/// The call fires when the sequence is made and goes through the call's actions like any firing:
/// a status outside 200–299 (or one an action refuses) throws before any chunk, with its body in
/// the error. Memory is bounded: at most 4 MiB waits in memory for a slow reader, the rest in a
/// temporary file (see Docs/Streaming.md). Breaking out of the loop, cancelling the enclosing
/// task or dropping the sequence cancels the call.
///
/// On a server whose ``ValidationAction`` accepts other types (``ValidationAction/json``, say), a
/// call that streams something else opts out in one line, with a validation of its own that
/// replaces the server's: `call.actions.append(ValidationAction())`.
public struct ResponseBytes: AsyncSequence, Sendable {
    /// Why the body stopped before its end.
    public typealias Failure = NetworkError

    let stream: StreamHandle

    /// The response head (status, headers, final URL) as soon as it arrives.
    ///
    /// Throws the call's error when it failed before a head or with a status outside 200–299.
    public var head: ResponseHead {
        get async throws(NetworkError) {
            try await stream.buffer.head()
        }
    }

    /// The firing, to cancel it or ask whether it finished.
    public var task: NetworkTask { stream.task }

    /// Reads the chunks in order.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: stream)
    }

    /// Reads a ``ResponseBytes`` sequence; when it goes away (the loop ended or was left), the
    /// call is cancelled unless it already finished.
    public struct Iterator: AsyncIteratorProtocol {
        private let reading: Reading

        init(stream: StreamHandle) {
            reading = Reading(stream: stream)
        }

        private var stream: StreamHandle { reading.stream }

        /// The next chunk, `nil` after the last; throws the error that ended the call.
        public mutating func next() async throws(NetworkError) -> Data? {
            try await stream.buffer.next()
        }

        /// The next chunk, `nil` after the last; throws the error that ended the call.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data? {
            try await stream.buffer.next()
        }
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
