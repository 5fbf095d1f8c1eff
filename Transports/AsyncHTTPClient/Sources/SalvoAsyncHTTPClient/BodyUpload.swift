import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
@_spi(Transport) import Salvo

/// A request body written to AsyncHTTPClient part by part: bytes held in memory, or an
/// `InputStream` (Salvo's multipart and file bodies, or any stream).
///
/// The next part is written once AsyncHTTPClient has taken the previous one, so an upload of any
/// size holds one part in memory, and upload progress is reported part by part as the parts go
/// out (`URLSession` reports it as it goes too). A stream is read on a queue of its own, never on
/// the event loop: its reads may block on disk.
final class BodyUpload: Sendable {
    /// Bytes sent per part.
    static let partSize = 64 * 1024

    private enum Source: Sendable {
        case bytes(Data)
        case stream(LockedStream, DispatchQueue)
    }

    private let source: Source
    private let writer: HTTPClient.Body.StreamWriter
    private let done: EventLoopPromise<Void>
    /// Bytes of an in-memory body already written.
    private let offset = NIOLockedValueBox(0)

    private init(_ source: Source, writer: HTTPClient.Body.StreamWriter, done: EventLoopPromise<Void>) {
        self.source = source
        self.writer = writer
        self.done = done
    }

    /// A body of `data`: one write when it fits a part, else part by part.
    static func body(sending data: Data, on eventLoop: any EventLoop) -> HTTPClient.Body {
        guard data.count > partSize else { return .bytes(data) }
        return .stream(contentLength: Int64(data.count)) { writer in
            let done = eventLoop.makePromise(of: Void.self)
            let upload = BodyUpload(.bytes(data), writer: writer, done: done)
            // On the event loop, each part after the previous write: never a deep recursion
            // through futures that complete at once.
            eventLoop.execute { upload.sendNextPart() }
            return done.futureResult
        }
    }

    /// A body that sends `stream`, with `contentLength` or chunked when it is `nil`.
    static func body(streaming stream: InputStream, contentLength: Int64?, on eventLoop: any EventLoop) -> HTTPClient.Body {
        let locked = LockedStream(stream)
        return .stream(contentLength: contentLength) { writer in
            let done = eventLoop.makePromise(of: Void.self)
            let queue = DispatchQueue(label: "Salvo.AsyncHTTPClientSession.upload")
            let upload = BodyUpload(.stream(locked, queue), writer: writer, done: done)
            queue.async {
                locked.withStream { $0.open() }
                upload.sendNextPart()
            }
            return done.futureResult
        }
    }

    /// Writes the next part; at the end of the body completes it.
    private func sendNextPart() {
        switch nextPart() {
        case .success(let part?):
            writer.write(.byteBuffer(part)).whenComplete { [self] result in
                switch result {
                case .success: scheduleNextPart()
                case .failure(let error): finish(.failure(error))
                }
            }
        case .success(nil):
            finish(.success(()))
        case .failure(let error):
            finish(.failure(error))
        }
    }

    private func scheduleNextPart() {
        switch source {
        case .bytes: done.futureResult.eventLoop.execute { self.sendNextPart() }
        case .stream(_, let queue): queue.async { self.sendNextPart() }
        }
    }

    /// The next part, `nil` at the end of the body.
    private func nextPart() -> Result<ByteBuffer?, BodyUploadError> {
        switch source {
        case .bytes(let data):
            let start = offset.withLockedValue { $0 }
            guard start < data.count else { return .success(nil) }
            let end = min(start + Self.partSize, data.count)
            offset.withLockedValue { $0 = end }
            return .success(ByteBuffer(bytes: data[data.startIndex + start..<data.startIndex + end]))
        case .stream(let stream, _):
            return stream.withStream(Self.read)
        }
    }

    /// Reads a part from `stream`; closes it at its end or on a failure.
    private static func read(_ stream: InputStream) -> Result<ByteBuffer?, BodyUploadError> {
        var buffer = ByteBufferAllocator().buffer(capacity: partSize)
        let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: partSize) { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            return max(0, stream.read(base.assumingMemoryBound(to: UInt8.self), maxLength: min(bytes.count, partSize)))
        }
        if count > 0 { return .success(buffer) }
        defer { stream.close() }
        guard stream.streamStatus == .error else { return .success(nil) }
        let reason = stream.streamError.map { ($0 as NSError).localizedDescription } ?? "the request body stream failed without saying why"
        return .failure(BodyUploadError(reason: reason))
    }

    private func finish(_ result: Result<Void, any Error>) {
        // Closed on the upload queue, after any read under way: a read may be waiting for the next
        // chunk of a body made while it is sent (`RequestBody.stream`), and a close under the
        // stream's lock would hold the event loop until that chunk exists.
        if case .failure = result, case .stream(let stream, let queue) = source { queue.async { stream.withStream { $0.close() } } }
        done.completeWith(result)
    }
}

/// A request body stream that failed while it was read: reported as the body's problem.
struct BodyUploadError: Error {
    let reason: String

    /// The error the exchange ends with.
    var problem: NetworkError { .invalidRequest(RequestProblem(.body, reason)) }
}

/// A request body's `InputStream`, which is not `Sendable`, behind a lock.
///
/// `@unchecked Sendable` is safe because every use of the stream goes through ``withStream(_:)``
/// under the lock: reads on the upload queue and a close after a failed write never overlap, and
/// each sees the effects of the one before, whichever thread it runs on.
final class LockedStream: @unchecked Sendable {
    private let lock = NIOLock()
    private let stream: InputStream

    init(_ stream: InputStream) {
        self.stream = stream
    }

    func withStream<Result>(_ body: (InputStream) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(stream) }
    }
}
