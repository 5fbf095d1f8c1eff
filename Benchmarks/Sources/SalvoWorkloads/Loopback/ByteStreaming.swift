import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 8: a large body streamed over loopback HTTP, Salvo's `call.bytes()` against a raw
/// URLSession data delegate reading the same body.
///
/// Both sides fetch `/stream/bytes?n=N` from the loopback server (the body generated on the fly in
/// 1 MiB writes, with a `Content-Length`) through sessions with the same configuration. The raw
/// side is a session-level `URLSessionDataDelegate` that counts the bytes it is handed: on Linux a
/// task-level delegate is given no data, and Salvo's streamed calls run on a delegate session too.
/// Salvo's side is `for try await chunk in call.bytes()`, counting the same way.
public struct ByteStreaming: Sendable {
    /// The body size the issue asks for: 512 MiB.
    public static let defaultByteCount = 512 << 20

    /// Bytes per stream.
    public let byteCount: Int
    private let server: ServerConfig
    private let session: URLSession
    private let rawSession: URLSession
    private let delegate: CountingDelegate

    /// A workload against the loopback server at `baseURL`, `byteCount` bytes per stream.
    public init(baseURL: URL, byteCount: Int = ByteStreaming.defaultByteCount) throws {
        self.byteCount = byteCount
        server = try ServerConfig(baseURL: baseURL.absoluteString)
        session = URLSession(configuration: .uncached())
        let delegate = CountingDelegate()
        self.delegate = delegate
        rawSession = URLSession(configuration: .uncached(), delegate: delegate, delegateQueue: nil)
    }

    /// Delegate callbacks (body chunks among them) waiting on the delegate queue of Salvo's
    /// session (`isSalvo`) or the raw one: what URLSession holds because the delegate is behind.
    public func queuedDelegateCallbacks(isSalvo: Bool) -> Int {
        (isSalvo ? session : rawSession).delegateQueue.operationCount
    }

    /// The call both sides' requests come from: `byteCount` bytes of the server's pattern.
    private func call(byteCount: Int) -> NetCall {
        .patternBytes(byteCount, from: server, through: session)
    }

    /// One Salvo stream, read as fast as it comes; returns the bytes read.
    @discardableResult
    public func salvo() async throws -> Int {
        try await salvo(consumingAtMost: nil)
    }

    /// One raw stream, read as fast as it comes; returns the bytes read.
    @discardableResult
    public func raw() async throws -> Int {
        try await raw(consumingAtMost: nil)
    }

    /// One Salvo stream whose reader, after each chunk, sleeps until it is back on a pace of
    /// `bytesPerSecond` (none: as fast as it comes); returns the bytes read.
    public func salvo(
        consumingAtMost bytesPerSecond: Double?,
        byteCount: Int? = nil,
        inspect: (@Sendable (Int, Data) throws -> Void)? = nil
    ) async throws -> Int {
        let byteCount = byteCount ?? self.byteCount
        var pace = Pace(bytesPerSecond: bytesPerSecond)
        var count = 0
        for try await chunk in call(byteCount: byteCount).bytes() {
            try inspect?(count, chunk)
            count += chunk.count
            if let delay = pace.delay(after: count) { try await Task.sleep(for: delay) }
        }
        guard count == byteCount else { throw WorkloadError("Salvo streamed \(count) of \(byteCount) bytes") }
        return count
    }

    /// One raw stream; with `bytesPerSecond`, the delegate sleeps after each chunk until it is back
    /// on that pace (blocking the session's delegate queue, as a slow synchronous consumer does).
    public func raw(
        consumingAtMost bytesPerSecond: Double?,
        byteCount: Int? = nil,
        inspect: (@Sendable (Int, Data) throws -> Void)? = nil
    ) async throws -> Int {
        let byteCount = byteCount ?? self.byteCount
        let request = try call(byteCount: byteCount).urlRequest()
        let count = try await withCheckedThrowingContinuation { continuation in
            let task = rawSession.dataTask(with: request)
            delegate.expect(task, transfer: CountingDelegate.Transfer(
                pace: Pace(bytesPerSecond: bytesPerSecond), inspect: inspect, continuation: continuation
            ))
            task.resume()
        }
        guard count == byteCount else { throw WorkloadError("raw streamed \(count) of \(byteCount) bytes") }
        return count
    }

    /// Fails unless both sides read the loopback server's pattern (byte i is i % 251), whole,
    /// on a 9 MiB + 1 byte body (past Salvo's 4 MiB in memory when the reader is slow).
    public func checkEquivalence() async throws {
        let check: @Sendable (Int, Data) throws -> Void = { offset, chunk in
            for (index, byte) in chunk.enumerated() where Int(byte) != (offset + index) % 251 {
                throw WorkloadError("byte \(offset + index) is \(byte), expected \((offset + index) % 251)")
            }
        }
        let size = (9 << 20) + 1
        _ = try await salvo(consumingAtMost: nil, byteCount: size, inspect: check)
        _ = try await salvo(consumingAtMost: 64 * 1_048_576, byteCount: size, inspect: check)
        _ = try await raw(consumingAtMost: nil, byteCount: size, inspect: check)
    }
}

/// A reader's pace: how long to sleep after `count` bytes to stay at `bytesPerSecond`.
private struct Pace {
    let bytesPerSecond: Double?
    private var start: ContinuousClock.Instant?

    init(bytesPerSecond: Double?) {
        self.bytesPerSecond = bytesPerSecond
    }

    mutating func delay(after count: Int) -> Duration? {
        guard let bytesPerSecond else { return nil }
        let now = ContinuousClock.now
        let start = self.start ?? now
        self.start = start
        let due = start + .seconds(Double(count) / bytesPerSecond)
        return due > now ? due - now : nil
    }
}

/// The raw side's session delegate: counts each task's bytes and resumes its waiter at the end.
///
/// Its callbacks arrive on the session's serial delegate queue; the lock only hands a transfer
/// from the starting thread to that queue.
private final class CountingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Transfer {
        var pace: Pace
        let inspect: (@Sendable (Int, Data) throws -> Void)?
        let continuation: CheckedContinuation<Int, any Error>
        var count = 0
        var failure: (any Error)?
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func expect(_ task: URLSessionTask, transfer: Transfer) {
        lock.withLock { transfers[task.taskIdentifier] = transfer }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard var transfer = lock.withLock({ transfers[dataTask.taskIdentifier] }) else { return }
        do {
            try transfer.inspect?(transfer.count, data)
        } catch {
            transfer.failure = error
            dataTask.cancel()
        }
        transfer.count += data.count
        if let delay = transfer.pace.delay(after: transfer.count) {
            Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) * 1e-18 + Double(delay.components.seconds))
        }
        lock.withLock { transfers[dataTask.taskIdentifier] = transfer }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure ?? error {
            transfer.continuation.resume(throwing: failure)
        } else if let http = task.response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            transfer.continuation.resume(throwing: WorkloadError("raw stream got status \(http.statusCode)"))
        } else {
            transfer.continuation.resume(returning: transfer.count)
        }
    }
}
