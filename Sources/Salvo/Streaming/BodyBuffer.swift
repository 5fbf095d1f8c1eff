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
final class BodyBuffer: ResponseReceiver {
    /// Bytes kept in memory before the backlog goes to disk: 4 MiB.
    static let defaultMemoryLimit = 4 << 20
    /// The most a read from the backlog file returns at once: 1 MiB.
    static let backlogReadSize = 1 << 20

    private struct State {
        var head: Result<URLResponse, NetworkError>?
        var headWaiters: [CheckedContinuation<Result<URLResponse, NetworkError>, Never>] = []
        var chunks: [Data] = []
        var nextChunk = 0
        var bytesInMemory = 0
        var backlog: Backlog?
        var end: NetworkError??
        var waiter: CheckedContinuation<Result<Data?, NetworkError>, Never>?
        var task: NetworkTask?
    }

    let memoryLimit: Int
    private let state = Locked(State())

    var readsBodyAsItArrives: Bool { true }

    init(memoryLimit: Int = BodyBuffer.defaultMemoryLimit) {
        self.memoryLimit = memoryLimit
    }

    /// The firing whose body this is: cancelled when the consumer stops reading.
    func attach(_ task: NetworkTask) {
        let isAbandoned = state.withLock { state in
            state.task = task
            if case .some(.some(let error)) = state.end { return error.isCancelled }
            return false
        }
        if isAbandoned { task.cancel() }
    }

    /// Stops the exchange: the consumer will read no more.
    func cancel() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(NetworkError.cancelled)
    }

    // MARK: - Consumer

    /// The response head, once it arrived; throws the call's error if it ended without one.
    ///
    /// Cancelling the task waiting for a head that has not arrived cancels the exchange, as
    /// ``next()`` does: a server slow to answer must not hold a cancelled task.
    func head() async throws(NetworkError) -> URLResponse {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<URLResponse, NetworkError>? in
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
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<Data?, NetworkError>? in
                    if let part = Self.takePart(&state) { return part }
                    if let end = state.end { return end.map { .failure($0) } ?? .success(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// The oldest part not yet read: from memory, then from the backlog file.
    private static func takePart(_ state: inout State) -> Result<Data?, NetworkError>? {
        if state.nextChunk < state.chunks.count {
            let chunk = state.chunks[state.nextChunk]
            state.nextChunk += 1
            state.bytesInMemory -= chunk.count
            if state.nextChunk == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.nextChunk = 0
            }
            return .success(chunk)
        }
        guard var backlog = state.backlog else { return nil }
        do throws(NetworkError) {
            let part = try backlog.read(upTo: backlogReadSize)
            state.backlog = backlog.isDrained ? nil : backlog
            if backlog.isDrained { backlog.delete() }
            return .success(part)
        } catch {
            backlog.delete()
            state.backlog = nil
            state.end = .some(error)
            return .failure(error)
        }
    }

    private static func backlog(_ existing: Backlog?) throws(NetworkError) -> Backlog {
        if let existing { return existing }
        return try Backlog()
    }

    // MARK: - ResponseReceiver

    func receive(_ head: URLResponse) {
        let waiters = state.withLock { state in
            state.head = .success(head)
            defer { state.headWaiters = [] }
            return state.headWaiters
        }
        waiters.forEach { $0.resume(returning: .success(head)) }
    }

    func receive(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        var failure: NetworkError?
        let waiter = state.withLock { state -> CheckedContinuation<Result<Data?, NetworkError>, Never>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                // The consumer is waiting, so nothing is buffered: hand the chunk straight over.
                state.waiter = nil
                return waiter
            }
            if state.backlog == nil, state.bytesInMemory + chunk.count <= memoryLimit {
                state.chunks.append(chunk)
                state.bytesInMemory += chunk.count
                return nil
            }
            do throws(NetworkError) {
                var backlog = try Self.backlog(state.backlog)
                try backlog.append(chunk)
                state.backlog = backlog
            } catch {
                failure = error
            }
            return nil
        }
        waiter?.resume(returning: .success(chunk))
        if let failure {
            // The body can no longer be kept in order: stop the exchange and report why.
            let task = state.withLock { $0.task }
            finish(failure)
            task?.cancel()
        }
    }

    func finish(_ error: (any Error)?) {
        let ended = error.map(NetworkError.init)
        let (waiter, headWaiters, part) = state.withLock { state -> (CheckedContinuation<Result<Data?, NetworkError>, Never>?, [CheckedContinuation<Result<URLResponse, NetworkError>, Never>], Result<Data?, NetworkError>?) in
            guard state.end == nil else { return (nil, [], nil) }
            state.end = .some(ended)
            if let ended, ended.isCancelled {
                // Nothing more will be read: drop the backlog now.
                state.backlog?.delete()
                state.backlog = nil
                state.chunks = []
            }
            let headWaiters = state.headWaiters
            state.headWaiters = []
            if state.head == nil {
                state.head = .failure(ended ?? .transport(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "the exchange ended without a response"])))
            }
            let waiter = state.waiter
            state.waiter = nil
            let part = waiter == nil ? nil : (Self.takePart(&state) ?? ended.map { .failure($0) } ?? .success(nil))
            return (waiter, headWaiters, part)
        }
        if let head = state.withLock({ $0.head }) {
            headWaiters.forEach { $0.resume(returning: head) }
        }
        if let waiter, let part { waiter.resume(returning: part) }
    }

    deinit {
        state.withLock { $0.backlog?.delete() }
    }
}

/// The part of a streamed body that did not fit in memory: a temporary file written at its end
/// and read from its start.
private struct Backlog {
    let url: URL
    private let handle: FileHandle
    private var written: UInt64 = 0
    private var read: UInt64 = 0

    init() throws(NetworkError) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-stream-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = try? FileHandle(forUpdating: url)
        else {
            throw Self.failure("could not create the stream's backlog file \(url.path)", code: .cannotCreateFile)
        }
        self.handle = handle
    }

    var isDrained: Bool { read == written }

    mutating func append(_ chunk: Data) throws(NetworkError) {
        do {
            try handle.seek(toOffset: written)
            try handle.write(contentsOf: chunk)
            written += UInt64(chunk.count)
        } catch {
            throw Self.failure("could not write the stream's backlog to \(url.path): \(error.localizedDescription)", code: .cannotWriteToFile)
        }
    }

    mutating func read(upTo count: Int) throws(NetworkError) -> Data {
        do {
            try handle.seek(toOffset: read)
            let part = try handle.read(upToCount: Int(min(UInt64(count), written - read))) ?? Data()
            guard !part.isEmpty else { throw URLError(.cannotOpenFile) }
            read += UInt64(part.count)
            return part
        } catch {
            throw Self.failure("could not read the stream's backlog from \(url.path): \(error.localizedDescription)", code: .cannotOpenFile)
        }
    }

    func delete() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    private static func failure(_ reason: String, code: URLError.Code) -> NetworkError {
        .transport(URLError(code, userInfo: [NSLocalizedDescriptionKey: reason]))
    }
}
