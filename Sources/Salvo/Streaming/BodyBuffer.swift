import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bounded buffer between a streamed body and the one consumer reading it.
///
/// URLSession on Linux offers no backpressure (suspending a task restarts its request: see
/// Docs/Linux.md), so a consumer slower than the network cannot slow the network down. Instead
/// the buffer keeps at most ``memoryLimit`` bytes in memory; what arrives beyond that goes to a
/// temporary file, read back in order, and the file is deleted as soon as it has been read or the
/// stream ends. Memory stays bounded whatever the body's size; the disk holds the backlog.
///
/// The file is written and read outside the lock, so a reader pulling a megabyte back from disk
/// never holds up the transport's thread (whose queue would otherwise grow in memory instead).
/// For the same reason the transport's parts are gathered into writes of ``spillSize``: one
/// write per 16 KiB part (what libcurl hands over) could not keep up with a loopback server at
/// 1.3 GB/s, and URLSession queued the parts it could not deliver, in memory (Docs/Performance.md, 8b).
final class BodyBuffer: ResponseReceiver {
    /// Bytes kept in memory before the backlog goes to disk: 4 MiB.
    static let defaultMemoryLimit = 4 << 20
    /// The most a read from the backlog file returns at once: 1 MiB.
    static let backlogReadSize = 1 << 20
    /// Bytes gathered in memory before they are written to the backlog at once: 1 MiB.
    static let spillSize = 1 << 20
    /// Bytes handed to the backlog's writer and not written yet before the transport waits: 8 MiB.
    static let writeAheadLimit = 8 << 20

    private struct State {
        var head: Result<ResponseHead, NetworkError>?
        var headWaiters: [CheckedContinuation<Result<ResponseHead, NetworkError>, Never>] = []
        var chunks: [Data] = []
        var nextChunk = 0
        var bytesInMemory = 0
        var backlog: BodyBacklog?
        /// Parts on their way to the backlog file, newer than everything in it.
        var spill = Spill()
        /// Bytes of the backlog file written, and read back.
        var written: UInt64 = 0
        var read: UInt64 = 0
        /// Bytes handed to the backlog's writer and not written yet (the file must not be deleted,
        /// nor gathered parts read, before they are).
        var writing = 0
        /// Whether a reader is reading the backlog right now (no other read may start).
        var isReading = false
        var end: NetworkError??
        /// The reader, waiting for anything new; resumed with `nil` to look again.
        var waiter: CheckedContinuation<Step?, Never>?
        var task: NetworkTask?
    }

    /// Parts gathered in memory on their way to the backlog file, and their size.
    private struct Spill {
        private(set) var parts: [Data] = []
        private(set) var bytes = 0

        var isEmpty: Bool { parts.isEmpty }

        mutating func append(_ part: Data) {
            parts.append(part)
            bytes += part.count
        }

        /// The parts gathered, leaving none.
        mutating func take() -> (parts: [Data], bytes: Int) {
            defer { self = Spill() }
            return (parts, bytes)
        }

        /// The parts gathered as one, leaving none.
        mutating func takeJoined() -> Data {
            let (parts, bytes) = take()
            return parts.count == 1 ? parts[0] : parts.reduce(into: Data(capacity: bytes)) { $0.append($1) }
        }
    }

    /// What the reader does next.
    private enum Step {
        case chunk(Data)
        case readBacklog(BodyBacklog, at: UInt64, count: Int)
        case end(NetworkError?)
    }

    let memoryLimit: Int
    /// Bytes gathered before a write to the backlog: ``spillSize`` but in tests.
    private let spillSize: Int
    private let state = Locked(State())
    /// Writes the backlog, in order, off the transport's thread: on Linux that thread is
    /// URLSession's delegate queue, and the parts it cannot take in time wait in URLSession's memory.
    private let writer = DispatchQueue(label: "Salvo.BodyBuffer.backlog")


    init(memoryLimit: Int = BodyBuffer.defaultMemoryLimit, spillSize: Int = BodyBuffer.spillSize) {
        self.memoryLimit = memoryLimit
        self.spillSize = spillSize
    }

    /// The firing whose body this is: cancelled when the consumer stops reading.
    ///
    /// The task holds this buffer as its body's receiver, so the buffer keeps the task only while
    /// the body is on its way: once it ended, the pair would keep each other, and the backlog
    /// file, alive for good.
    func attach(_ task: NetworkTask) {
        let isAbandoned = state.withLock { state in
            guard let end = state.end else {
                state.task = task
                return false
            }
            return end?.isCancelled ?? false
        }
        if isAbandoned { task.cancel() }
    }

    /// Stops the exchange: the consumer will read no more. After the body's end it drops what
    /// was not read, and the backlog file with it.
    func cancel() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(NetworkError.cancelled)
    }

    /// Ends the body with `error` unless it already ended, and stops the exchange: a reader
    /// that gave up on a silent stream.
    func drop(_ error: NetworkError) {
        fail(error)
    }

    /// Bytes waiting in memory now (never more than ``memoryLimit``).
    var bytesInMemory: Int { state.withLock { $0.bytesInMemory } }

    /// The backlog file, while there is one.
    var backlogFile: URL? { state.withLock { $0.backlog?.url } }

    /// Bytes written to the backlog file so far.
    var backlogBytesWritten: UInt64 { state.withLock { $0.written } }

    // MARK: - Consumer

    /// The response head, once it arrived; throws the call's error if it ended without one.
    ///
    /// Cancelling the task waiting for a head that has not arrived cancels the exchange, as
    /// ``next()`` does: a server slow to answer must not hold a cancelled task.
    func head() async throws(NetworkError) -> ResponseHead {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<ResponseHead, NetworkError>? in
                    if let head = state.head { return head }
                    state.headWaiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            if state.withLock({ $0.head == nil }) { cancel() }
        }
        return try result.get()
    }

    /// The next part of the body, `nil` at its end; throws the error that ended the call.
    func next() async throws(NetworkError) -> Data? {
        while true {
            // A part already waiting is taken without suspending: most reads of a fast body.
            var step = Task.isCancelled ? nil : state.withLock { Self.step(&$0) }
            if step == nil { step = await nextStep() }
            guard let step else { continue }
            switch step {
            case .chunk(let chunk):
                return chunk
            case .end(let error):
                if let error { throw error }
                return nil
            case .readBacklog(let backlog, let offset, let count):
                do throws(NetworkError) {
                    let part = try backlog.read(count, at: offset)
                    let other = state.withLock { state in
                        state.isReading = false
                        if state.backlog === backlog { state.read += UInt64(part.count) }
                        return wakeReader(&state)
                    }
                    other?.resume(returning: nil)
                    return part
                } catch {
                    state.withLock { $0.isReading = false }
                    fail(error)
                    throw error
                }
            }
        }
    }

    /// What to do next, or `nil` after waiting for news; cancelling the reader's task cancels the call.
    private func nextStep() async -> Step? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Step?, Never>) in
                let step = state.withLock { state -> Step? in
                    if let step = Self.step(&state) { return step }
                    state.waiter = continuation
                    return nil
                }
                if let step { continuation.resume(returning: step) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The oldest part not yet read: from memory, then from the backlog file; or the end.
    private static func step(_ state: inout State) -> Step? {
        if state.nextChunk < state.chunks.count {
            let chunk = state.chunks[state.nextChunk]
            // Release the chunk now: a reader that never quite catches up must not keep read ones.
            state.chunks[state.nextChunk] = Data()
            state.nextChunk += 1
            state.bytesInMemory -= chunk.count
            if state.nextChunk == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.nextChunk = 0
            } else if state.nextChunk >= 1_024 {
                state.chunks.removeFirst(state.nextChunk)
                state.nextChunk = 0
            }
            return .chunk(chunk)
        }
        if let backlog = state.backlog {
            if state.isReading { return nil }
            if state.read < state.written {
                state.isReading = true
                return .readBacklog(backlog, at: state.read, count: Int(min(UInt64(backlogReadSize), state.written - state.read)))
            }
            if state.writing > 0 { return nil }
            if !state.spill.isEmpty {
                // The file is read to its end: the parts not yet written are next, straight from memory.
                return .chunk(state.spill.takeJoined())
            }
            // Read to its end with nothing more on the way: back to memory.
            state.backlog = nil
            state.written = 0
            state.read = 0
        }
        if let end = state.end { return .end(end) }
        return nil
    }

    private func wakeReader(_ state: inout State) -> CheckedContinuation<Step?, Never>? {
        defer { state.waiter = nil }
        return state.waiter
    }

    // MARK: - ResponseReceiver

    func receive(_ head: ResponseHead) {
        let waiters = state.withLock { state in
            state.head = .success(head)
            defer { state.headWaiters = [] }
            return state.headWaiters
        }
        waiters.forEach { $0.resume(returning: .success(head)) }
    }

    /// Calls never overlap (the receiver contract), so parts reach the gathered write in order;
    /// ``writer`` then writes each batch after the one before it.
    func receive(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        enum Placement { case dropped, kept(CheckedContinuation<Step?, Never>?), write([Data], bytes: Int, to: BodyBacklog, waiting: Bool), failed(NetworkError) }
        let placement = state.withLock { state -> Placement in
            guard state.end == nil else { return .dropped }
            if state.backlog == nil, state.bytesInMemory + chunk.count <= memoryLimit {
                state.chunks.append(chunk)
                state.bytesInMemory += chunk.count
                return .kept(wakeReader(&state))
            }
            do throws(NetworkError) {
                let backlog = try BodyBacklog.existing(state.backlog)
                state.backlog = backlog
                // Kept as they came, not copied: the transport's thread only files them away.
                state.spill.append(chunk)
                // A reader waiting at the file's end may take the gathered parts from memory.
                guard state.spill.bytes >= spillSize else { return .kept(wakeReader(&state)) }
                let (parts, bytes) = state.spill.take()
                state.writing += bytes
                return .write(parts, bytes: bytes, to: backlog, waiting: state.writing > Self.writeAheadLimit)
            } catch {
                return .failed(error)
            }
        }
        switch placement {
        case .dropped:
            return
        case .kept(let reader):
            reader?.resume(returning: nil)
        case .write(let parts, let bytes, let backlog, let waiting):
            writer.async { self.write(parts, bytes: bytes, to: backlog) }
            // The disk is behind by more than the limit: hold the transport until it catches up.
            if waiting { writer.sync {} }
        case .failed(let error):
            fail(error)
        }
    }

    /// Writes gathered parts to the backlog, on ``writer``, and lets the reader at them.
    private func write(_ parts: [Data], bytes: Int, to backlog: BodyBacklog) {
        do throws(NetworkError) {
            try backlog.append(parts)
            let reader = state.withLock { state -> CheckedContinuation<Step?, Never>? in
                state.writing -= bytes
                guard state.backlog === backlog else { return nil }
                state.written += UInt64(bytes)
                return wakeReader(&state)
            }
            reader?.resume(returning: nil)
        } catch {
            state.withLock { $0.writing -= bytes }
            fail(error)
        }
    }

    /// The body can no longer be kept in order: stop the exchange and report why.
    private func fail(_ error: NetworkError) {
        let task = state.withLock { $0.task }
        finish(error)
        task?.cancel()
    }

    func finish(_ error: (any Error)?) {
        let ended = error.map(NetworkError.init)
        let (reader, headWaiters, head) = state.withLock { state -> (CheckedContinuation<Step?, Never>?, [CheckedContinuation<Result<ResponseHead, NetworkError>, Never>], Result<ResponseHead, NetworkError>?) in
            // The body has ended: the task is done with this buffer, and this buffer with it.
            state.task = nil
            let isCancelled = ended?.isCancelled ?? false
            if let end = state.end {
                // A reader leaving after a clean end: what it left unread goes now, not with the
                // last reference, and it ends as cancelled rather than as a body cut short.
                guard end == nil, isCancelled, Self.hasUnread(state) else { return (nil, [], nil) }
            }
            state.end = .some(ended)
            if isCancelled {
                // Nothing more will be read: drop what waits now.
                state.backlog = nil
                state.spill = Spill()
                state.chunks = []
                state.nextChunk = 0
                state.bytesInMemory = 0
            }
            if state.head == nil {
                state.head = .failure(ended ?? .transport(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "the exchange ended without a response"])))
            }
            defer { state.headWaiters = [] }
            return (wakeReader(&state), state.headWaiters, state.head)
        }
        if let head { headWaiters.forEach { $0.resume(returning: head) } }
        reader?.resume(returning: nil)
    }

    /// Whether any of the body waits to be read, in memory or in the backlog.
    private static func hasUnread(_ state: State) -> Bool {
        state.nextChunk < state.chunks.count || state.backlog != nil || !state.spill.isEmpty
    }
}
