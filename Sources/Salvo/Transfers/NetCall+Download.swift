import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body saved to a file by ``NetCall/download(to:replacingExisting:)``.
public struct DownloadedFile: Sendable {
    /// Where the body is now: the destination you gave.
    public let url: URL
    /// The response it came with.
    public let response: HTTPURLResponse
    /// The body's size, in bytes.
    public let byteCount: Int64
}

extension NetCall {
    /// Fires the call and saves its body to `destination`, streaming it to disk as it arrives.
    ///
    /// ```swift
    /// let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
    /// let file = try await reportCall.download(to: documents.appendingPathComponent("report.pdf"))
    /// ```
    ///
    /// The body goes to a hidden temporary file in the destination's folder and is moved to
    /// `destination` in one step once it has arrived whole, so `destination` never holds part of
    /// a body: a failed, refused or cancelled download leaves it as it was (and removes the
    /// temporary file). Memory stays bounded as for ``bytes()``; actions decide on the head first.
    ///
    /// - Parameters:
    ///   - destination: a file URL in an existing folder.
    ///   - replacingExisting: whether a file already at `destination` is replaced; when `false`,
    ///     the download fails before anything is sent.
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming the destination when it is not a file
    ///   URL, its folder is missing or it exists and may not be replaced;
    ///   ``NetworkError/transport(_:)`` naming the file when it cannot be written (disk full, no
    ///   permission); otherwise the call's error.
    public func download(to destination: URL, replacingExisting: Bool = true) async throws(NetworkError) -> DownloadedFile {
        let partial = try Self.partialFile(for: destination, replacingExisting: replacingExisting)
        defer { try? FileManager.default.removeItem(at: partial.url) }
        let body = bytes()
        var byteCount: Int64 = 0
        // A write that fails leaves the loop, and leaving it cancels the call.
        for try await chunk in body {
            try partial.write(chunk)
            byteCount += Int64(chunk.count)
        }
        let response = try await body.response
        try partial.close()
        try Self.move(partial.url, to: destination)
        return DownloadedFile(url: destination, response: response, byteCount: byteCount)
    }

    /// A new hidden file next to `destination`, after checking `destination` can be written.
    private static func partialFile(for destination: URL, replacingExisting: Bool) throws(NetworkError) -> PartialFile {
        guard destination.isFileURL else {
            throw .invalidRequest(RequestProblem(.body, "the download destination \(destination.absoluteString) is not a file URL"))
        }
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .invalidRequest(RequestProblem(.body, "the download destination's folder \(folder.path) does not exist"))
        }
        if !replacingExisting, FileManager.default.fileExists(atPath: destination.path) {
            throw .invalidRequest(RequestProblem(.body, "\(destination.path) already exists; pass replacingExisting: true to replace it"))
        }
        return try PartialFile(in: folder, for: destination)
    }

    /// Moves the finished body into place in one step, replacing what was there: `rename(2)`,
    /// atomic within a folder. (swift-corelibs-foundation's `replaceItemAt` fails with "the file
    /// doesn't exist" when the destination does exist: measured, see Docs/Linux.md.)
    private static func move(_ partial: URL, to destination: URL) throws(NetworkError) {
        guard rename(partial.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .transport(URLError(.cannotMoveFile, userInfo: [
                NSLocalizedDescriptionKey: "could not move the download to \(destination.path): \(reason)",
            ]))
        }
    }
}

/// The file a download is written to until it is whole.
private struct PartialFile {
    let url: URL
    private let handle: FileHandle

    init(in folder: URL, for destination: URL) throws(NetworkError) {
        url = folder.appendingPathComponent(".\(destination.lastPathComponent).salvo-\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = try? FileHandle(forWritingTo: url) else {
            throw Self.failure("could not create \(url.path) for the download to \(destination.path)", code: .cannotCreateFile)
        }
        self.handle = handle
    }

    func write(_ chunk: Data) throws(NetworkError) {
        do {
            try handle.write(contentsOf: chunk)
        } catch {
            throw Self.failure("could not write the download to \(url.path): \(error.localizedDescription)", code: .cannotWriteToFile)
        }
    }

    func close() throws(NetworkError) {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw Self.failure("could not finish writing the download to \(url.path): \(error.localizedDescription)", code: .cannotWriteToFile)
        }
    }

    private static func failure(_ reason: String, code: URLError.Code) -> NetworkError {
        .transport(URLError(code, userInfo: [NSLocalizedDescriptionKey: reason]))
    }
}
