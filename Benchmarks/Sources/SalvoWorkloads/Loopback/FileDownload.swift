import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 9: a large body downloaded to a file over loopback HTTP, Salvo's
/// `call.download(to:)` against a raw URLSession doing the same.
///
/// Both sides fetch `/stream/bytes?n=N` (with a `Content-Length`) through sessions with the same
/// configuration, write the body to a file in one folder and move it over the previous run's
/// file at their own destination with `rename(2)`, so each run also replaces a whole file, as
/// Salvo's does. The raw side is one of ``RawMethod``. Salvo's download also flushes the file to
/// disk (`fsync`) before the rename; of the raw methods only ``RawMethod/dataDelegateSynchronized`` does.
public struct FileDownload: Sendable {
    /// The body size the issue asks for: 256 MiB.
    public static let defaultByteCount = 256 << 20

    /// How the raw side saves the body.
    public enum RawMethod: String, Sendable, CaseIterable {
        /// A session-level `URLSessionDataDelegate` writing each chunk to a `FileHandle` as it
        /// arrives, then `rename(2)`: the transport Salvo's download uses (a task-level delegate
        /// is given no data on Linux).
        case dataDelegate
        /// The same, with the file flushed to disk (`FileHandle.synchronize()`) before the rename,
        /// as Salvo does.
        case dataDelegateSynchronized
        /// `downloadTask(with:completionHandler:)`: corelibs writes the body to a temporary file
        /// on its own queue, and the handler renames it into place.
        case downloadTask
        /// A `downloadTask` reporting to a session-level `URLSessionDownloadDelegate`, which
        /// renames the file in `didFinishDownloadingTo`.
        case downloadDelegate
    }

    /// Bytes per download.
    public let byteCount: Int
    /// The folder both sides download into (their destinations and partial files).
    public let folder: URL
    private let server: ServerConfig
    private let session: URLSession
    private let rawSession: URLSession
    private let delegate: FileWritingDelegate
    private let plainSession: URLSession
    private let downloadSession: URLSession
    private let downloadDelegate: MovingDownloadDelegate

    /// A workload against the loopback server at `baseURL`, `byteCount` bytes per download,
    /// into a new folder in the temporary directory, made by the first download (see ``removeFolder()``).
    public init(baseURL: URL, byteCount: Int = FileDownload.defaultByteCount) throws {
        self.byteCount = byteCount
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bench-download-\(UUID().uuidString)")
        server = try ServerConfig(baseURL: baseURL.absoluteString)
        session = URLSession(configuration: .uncached())
        let delegate = FileWritingDelegate()
        self.delegate = delegate
        rawSession = URLSession(configuration: .uncached(), delegate: delegate, delegateQueue: nil)
        plainSession = URLSession(configuration: .uncached())
        let downloadDelegate = MovingDownloadDelegate()
        self.downloadDelegate = downloadDelegate
        downloadSession = URLSession(configuration: .uncached(), delegate: downloadDelegate, delegateQueue: nil)
    }

    /// Deletes the folder and the files in it.
    public func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Delegate callbacks waiting on the delegate queue of Salvo's session (`isSalvo`) or the
    /// raw data-delegate one: what URLSession holds because the writer is behind.
    public func queuedDelegateCallbacks(isSalvo: Bool) -> Int {
        (isSalvo ? session : rawSession).delegateQueue.operationCount
    }

    /// The call both sides' requests come from: `byteCount` bytes of the server's pattern.
    private func call(byteCount: Int) -> NetCall {
        .patternBytes(byteCount, from: server, through: session)
    }

    /// A file in ``folder``, which is made if it is not there yet (one `mkdir` per download, each side).
    private func destination(_ name: String) throws -> URL {
        if mkdir(folder.path, 0o700) != 0, errno != EEXIST {
            throw WorkloadError("cannot make \(folder.path): \(String(cString: strerror(errno)))")
        }
        return folder.appendingPathComponent(name)
    }

    /// One Salvo download: `call.download(to:)`; returns the bytes saved.
    @discardableResult
    public func salvo(byteCount: Int? = nil) async throws -> Int {
        let byteCount = byteCount ?? self.byteCount
        let file = try await call(byteCount: byteCount).download(to: try destination("salvo.bin"))
        guard file.byteCount == Int64(byteCount) else { throw WorkloadError("Salvo saved \(file.byteCount) of \(byteCount) bytes") }
        return byteCount
    }

    /// One raw download by `method`; returns the bytes saved.
    @discardableResult
    public func raw(_ method: RawMethod, byteCount: Int? = nil) async throws -> Int {
        let byteCount = byteCount ?? self.byteCount
        let request = try call(byteCount: byteCount).urlRequest()
        let destination = try self.destination("raw-\(method.rawValue).bin")
        switch method {
        case .dataDelegate, .dataDelegateSynchronized:
            let partial = folder.appendingPathComponent(".raw-\(UUID().uuidString).partial")
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw WorkloadError("cannot create \(partial.path)")
            }
            let handle = try FileHandle(forWritingTo: partial)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let task = rawSession.dataTask(with: request)
                delegate.expect(task, FileWritingDelegate.Transfer(
                    handle: handle, partial: partial, destination: destination,
                    isSynchronizing: method == .dataDelegateSynchronized, continuation: continuation
                ))
                task.resume()
            }
        case .downloadTask:
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                plainSession.downloadTask(with: request) { location, response, error in
                    continuation.resume(with: Result { try Self.move(location, response, error, to: destination) })
                }.resume()
            }
        case .downloadDelegate:
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let task = downloadSession.downloadTask(with: request)
                downloadDelegate.expect(task, destination: destination, continuation: continuation)
                task.resume()
            }
        }
        let saved = try Self.size(of: destination)
        guard saved == byteCount else { throw WorkloadError("raw \(method.rawValue) saved \(saved) of \(byteCount) bytes") }
        return byteCount
    }

    /// Fails unless Salvo and every raw method save the server's pattern (byte i is i % 251),
    /// whole, for a 9 MiB + 1 byte body (past Salvo's 4 MiB in memory).
    public func checkEquivalence() async throws {
        let size = (9 << 20) + 1
        try await salvo(byteCount: size)
        try Self.checkPattern(try destination("salvo.bin"), size: size)
        for method in RawMethod.allCases {
            try await raw(method, byteCount: size)
            try Self.checkPattern(try destination("raw-\(method.rawValue).bin"), size: size)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        guard left.isEmpty else { throw WorkloadError("partial files left behind: \(left)") }
    }

    private static func checkPattern(_ file: URL, size: Int) throws {
        let data = try Data(contentsOf: file)
        guard data.count == size else { throw WorkloadError("\(file.lastPathComponent) has \(data.count) of \(size) bytes") }
        for (index, byte) in data.enumerated() where Int(byte) != index % 251 {
            throw WorkloadError("\(file.lastPathComponent): byte \(index) is \(byte), expected \(index % 251)")
        }
    }

    private static func size(of file: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        guard let size = (attributes[.size] as? NSNumber)?.intValue else { throw WorkloadError("no size for \(file.path)") }
        return size
    }

    /// What a raw download's completion does: check the status, then move the file into place.
    fileprivate static func move(_ location: URL?, _ response: URLResponse?, _ error: (any Error)?, to destination: URL) throws {
        if let error { throw error }
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw WorkloadError("raw download got \(String(describing: response))")
        }
        guard let location else { throw WorkloadError("raw download gave no file") }
        try moveFile(location, to: destination)
    }

    fileprivate static func moveFile(_ file: URL, to destination: URL) throws {
        guard rename(file.path, destination.path) == 0 else {
            throw WorkloadError("cannot move \(file.path) to \(destination.path): \(String(cString: strerror(errno)))")
        }
    }
}

/// The raw data-delegate side: writes each task's chunks to its file as they arrive, and at the
/// end closes the file (flushing it first when asked) and renames it into place.
///
/// Its callbacks arrive on the session's serial delegate queue; the lock only hands a transfer
/// from the starting thread to that queue.
private final class FileWritingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Transfer {
        let handle: FileHandle
        let partial: URL
        let destination: URL
        let isSynchronizing: Bool
        let continuation: CheckedContinuation<Void, any Error>
        var failure: (any Error)?
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func expect(_ task: URLSessionTask, _ transfer: Transfer) {
        lock.withLock { transfers[task.taskIdentifier] = transfer }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = lock.withLock({ transfers[dataTask.taskIdentifier] }), transfer.failure == nil else { return }
        do {
            try transfer.handle.write(contentsOf: data)
        } catch {
            lock.withLock { transfers[dataTask.taskIdentifier]?.failure = error }
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        let result = Result<Void, any Error> {
            defer { try? FileManager.default.removeItem(at: transfer.partial) }
            if transfer.isSynchronizing { try transfer.handle.synchronize() }
            try transfer.handle.close()
            if let failure = transfer.failure ?? error { throw failure }
            guard let http = task.response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
                throw WorkloadError("raw download got \(String(describing: task.response))")
            }
            try FileDownload.moveFile(transfer.partial, to: transfer.destination)
        }
        transfer.continuation.resume(with: result)
    }
}

/// The raw download-delegate side: moves each finished download into place.
private final class MovingDownloadDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    private struct Transfer {
        let destination: URL
        let continuation: CheckedContinuation<Void, any Error>
        var failure: (any Error)?
        var isMoved = false
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func expect(_ task: URLSessionTask, destination: URL, continuation: CheckedContinuation<Void, any Error>) {
        lock.withLock { transfers[task.taskIdentifier] = Transfer(destination: destination, continuation: continuation) }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        guard let destination = lock.withLock({ transfers[downloadTask.taskIdentifier]?.destination }) else { return }
        let outcome = Result { try FileDownload.move(location, downloadTask.response, nil, to: destination) }
        lock.withLock {
            if case .failure(let error) = outcome { transfers[downloadTask.taskIdentifier]?.failure = error }
            transfers[downloadTask.taskIdentifier]?.isMoved = true
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure ?? error {
            transfer.continuation.resume(throwing: failure)
        } else if !transfer.isMoved {
            transfer.continuation.resume(throwing: WorkloadError("raw download delegate was given no file"))
        } else {
            transfer.continuation.resume()
        }
    }
}
