import Foundation

/// One send of a streamed body, read through a blocking `read` (``BodyStream``): a task makes the
/// chunks and hands them over one at a time, and `read` waits for the next.
///
/// Transports read a body stream synchronously on a thread of their own (Apple's `URLSession`,
/// the AsyncHTTPClient transport's upload queue) and take a stream with no bytes available as the
/// end of the body, so `read` must wait for the next chunk rather than answer "nothing yet". (Over
/// corelibs `URLSession` that wait would stop every transfer of the process, so there the chunks
/// are made first: `URLSessionExchange`.) At most one chunk is held: the producer makes the next
/// one only after the transport took the whole of the last.
///
/// The chunks must add up to the body's announced length, if it has one: the pump fails rather
/// than send a body shorter or longer than the `Content-Length` the server was told.
final class ChunkPump: @unchecked Sendable {
    // Safe because every stored `var` but `task` is read and written only while `condition` is
    // locked, and `task` is set once, in `init`, and read only by `cancel()` after that. `Locked`
    // cannot be used: `read` must sleep until a chunk arrives, which takes a condition.
    private let condition = NSCondition()
    private var chunk = Data()
    private var offset = 0
    private var sent: Int64 = 0
    private var isFinished = false
    private var isCancelled = false
    private var failureReason: String?
    /// The producer, waiting for the transport to take the whole of ``chunk``.
    private var producer: CheckedContinuation<Void, Never>?
    private var task: Task<Void, Never>?
    private let chunks: BodyChunks

    /// Starts making `chunks`.
    init(_ chunks: BodyChunks) {
        self.chunks = chunks
        task = Task { [self] in
            do {
                try await chunks.produce { try await self.deliver($0) }
                finish(failure: nil)
            } catch {
                finish(failure: BodyChunks.failure(error))
            }
        }
    }

    /// Why the body could not be sent whole; `nil` while all is well.
    var failure: String? {
        condition.lock()
        defer { condition.unlock() }
        return failureReason
    }

    /// Copies up to `maxLength` bytes of the current chunk into `buffer`, waiting for the chunk
    /// when there is none yet; 0 at the end of the body, -1 when it failed or was cancelled.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        condition.lock()
        while offset == chunk.count, !isFinished, !isCancelled, failureReason == nil {
            condition.wait()
        }
        guard failureReason == nil, !isCancelled else {
            condition.unlock()
            return -1
        }
        guard offset < chunk.count else {
            condition.unlock()
            return 0
        }
        let count = min(maxLength, chunk.count - offset)
        chunk.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        var waiting: CheckedContinuation<Void, Never>?
        if offset == chunk.count {
            waiting = producer
            producer = nil
        }
        condition.unlock()
        waiting?.resume()
        return count
    }

    /// Stops making chunks; a waiting `read` returns -1.
    func cancel() {
        condition.lock()
        isCancelled = true
        let waiting = producer
        producer = nil
        condition.broadcast()
        condition.unlock()
        waiting?.resume()
        task?.cancel()
    }

    /// Hands `next` to the reader and waits until it was read whole.
    private func deliver(_ next: Data) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            sent += Int64(next.count)
            if let problem = chunks.lengthProblem(after: sent, isFinished: false) {
                failureReason = problem
            }
            guard !isCancelled, failureReason == nil else {
                condition.broadcast()
                condition.unlock()
                continuation.resume()
                return
            }
            chunk = next
            offset = 0
            producer = continuation
            condition.broadcast()
            condition.unlock()
        }
        if isStopped { throw CancellationError() }
    }

    /// Whether the reader went away or the body failed, so no more chunks are wanted.
    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isCancelled || failureReason != nil
    }

    private func finish(failure: String?) {
        condition.lock()
        if failureReason == nil, !isCancelled {
            failureReason = failure ?? chunks.lengthProblem(after: sent, isFinished: true)
        }
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }
}
