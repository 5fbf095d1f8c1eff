import Foundation

/// A call's response body as lines of text, as they arrive: an `AsyncSequence` of `String`, read once.
///
/// ```swift
/// for try await line in call.lines() {
///     log.append(line)
/// }
/// ```
///
/// Lines end at LF, CR or CRLF and come without their terminator; a last line without one is
/// still delivered. Invalid UTF-8 becomes U+FFFD rather than ending the stream. A line longer than
/// the `maximumLineLength` of ``NetCall/lines(maximumLineLength:)`` (1 MiB unless you pass another) ends the stream with
/// ``NetworkError/unacceptableResponse(_:)``, so a server that never sends a line break cannot
/// make memory grow. Firing, actions and cancellation are those of ``ResponseBytes``; on a server
/// validating JSON, `call.actions.append(ValidationAction())` lets a call stream text.
public struct ResponseLines: AsyncSequence, Sendable {
    /// Why the body stopped before its end.
    public typealias Failure = NetworkError

    /// The body the lines are read from.
    let bytes: ResponseBytes
    /// The longest line accepted, in bytes.
    let maximumLineLength: Int

    /// Reads the lines in order.
    public func makeAsyncIterator() -> Iterator {
        Iterator(bytes: bytes.makeAsyncIterator(), splitter: LineSplitter(maximumLineLength: maximumLineLength))
    }

    /// Reads a ``ResponseLines`` sequence.
    public struct Iterator: AsyncIteratorProtocol {
        var bytes: ResponseBytes.Iterator
        var splitter: LineSplitter
        var pending: [String] = []
        var nextPending = 0
        var isAtEnd = false

        /// The next line, `nil` after the last; throws the error that ended the call.
        public mutating func next() async throws(NetworkError) -> String? {
            try await next(isolation: nil)
        }

        /// The next line, `nil` after the last; throws the error that ended the call.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> String? {
            while nextPending == pending.count {
                guard !isAtEnd else { return nil }
                pending = []
                nextPending = 0
                if let chunk = try await bytes.next(isolation: actor) {
                    pending = try splitter.lines(in: chunk)
                } else {
                    isAtEnd = true
                    if let last = splitter.finish() { pending = [last] }
                }
            }
            defer { nextPending += 1 }
            return pending[nextPending]
        }
    }
}
