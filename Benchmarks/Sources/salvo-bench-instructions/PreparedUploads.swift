import Foundation
import SalvoWorkloads

/// Upload files of whole MiB, written by `prepare` before the counters are zeroed, and one
/// workload (sessions, connection) that sends all of them.
final class PreparedUploads: @unchecked Sendable {
    private let baseURL: URL
    // Safe: `upload` and `files` are only touched under `lock`.
    private let lock = NSLock()
    private var upload: MultipartUpload?
    private var files: [Int: MultipartUpload.Files] = [:]

    init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// Writes the files for an upload of `count` MiB.
    func prepare(_ count: Int) throws {
        let files = try MultipartUpload.Files(byteCount: count << 20)
        try lock.withLock {
            upload = try upload ?? MultipartUpload(baseURL: baseURL, files: files)
            self.files[count] = files
        }
    }

    /// Runs `send` with the workload and the files prepared for `count` MiB.
    func upload(_ count: Int, _ send: @Sendable (MultipartUpload, MultipartUpload.Files) async throws -> Int) async throws {
        guard case let (upload?, files?) = lock.withLock({ (upload, files[count]) }) else {
            throw WorkloadError("no upload prepared for \(count) MiB")
        }
        _ = try await send(upload, files)
    }
}
