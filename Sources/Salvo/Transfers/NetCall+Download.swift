import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body saved to a file by ``NetCall/download(to:replacingExisting:resumable:progress:)``.
public struct DownloadedFile: Sendable {
    /// Where the body is now: the destination you gave.
    public let url: URL
    /// The head of the response the last part of the body came with (`206 Partial Content`
    /// when it resumed).
    public let head: ResponseHead
    /// The whole file's size, in bytes.
    public let byteCount: Int64
    /// How many of those bytes an earlier, interrupted download had already saved; 0 when this
    /// download fetched the whole body.
    public let resumedBytes: Int64
}

extension NetCall {
    /// Fires the call and saves its body to `destination`, streaming it to disk as it arrives.
    ///
    /// ```swift
    /// let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
    /// let file = try await reportCall.download(to: documents.appendingPathComponent("report.pdf")) { progress in
    ///     print("\(Int((progress.fractionCompleted ?? 0) * 100)) %")
    /// }
    /// ```
    ///
    /// The body goes to a hidden temporary file in the destination's folder and is moved to
    /// `destination` in one step once it has arrived whole, so `destination` never holds part of
    /// a body: a failed, refused or cancelled download leaves it as it was. Memory stays bounded
    /// as for ``bytes()``; actions decide on the head first.
    ///
    /// With `resumable`, a GET download that fails or is cancelled keeps what it saved (hidden,
    /// beside the destination) when the server named a version of the file (a strong `ETag` or a
    /// `Last-Modified` date), and the next `download(to:resumable: true)` to the same destination
    /// asks only for the rest (`Range` with `If-Range`). A server that has a newer version, or
    /// ignores ranges, sends the whole file again; nothing is ever joined from two versions.
    ///
    /// - Parameters:
    ///   - destination: a file URL in an existing folder.
    ///   - replacingExisting: whether a file already at `destination` is replaced; when `false`,
    ///     the download fails before anything is sent.
    ///   - resumable: whether an interrupted download keeps its bytes for the next one to resume.
    ///   - progress: called as the body arrives, at most 10 times a second, and with 100% exactly
    ///     once when the file is in place, before the download returns. It runs in the isolation
    ///     of the code that calls `download` (on the main actor in an app target or a view model,
    ///     so it may update the model), or in a closure's own (`{ @MainActor progress in … }`); the
    ///     download waits for each report. A resumed download starts from the bytes it already had.
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming the destination when it is not a file
    ///   URL, its folder is missing or it exists and may not be replaced;
    ///   ``NetworkError/transport(_:)`` naming the destination and the URL when the file cannot be
    ///   written (disk full, no permission), or the URL when the body ends short of its
    ///   `Content-Length`; otherwise the call's error.
    public func download(
        to destination: URL,
        replacingExisting: Bool = true,
        resumable: Bool = false,
        @_inheritActorContext progress: (@isolated(any) @Sendable (TransferProgress) -> Void)? = nil
    ) async throws(NetworkError) -> DownloadedFile {
        try Self.check(destination, replacingExisting: replacingExisting)
        let source = try urlRequest().url?.absoluteString ?? ""
        let keepsPartialBody = resumable && endpoint.method == .get && endpoint.headers["Range"] == nil
        let partial = try PartialDownload(for: destination, from: source, resumable: keepsPartialBody)
        let reporter = progress.map(DownloadProgress.init)
        do {
            return try await download(into: partial, destination: destination, reporter: reporter)
        } catch {
            partial.abandon()
            throw error
        }
    }

    /// Fires the call, resuming what `partial` holds when it can, and moves the whole body to `destination`.
    private func download(into partial: PartialDownload, destination: URL, reporter: DownloadProgress?) async throws(NetworkError) -> DownloadedFile {
        var call = self
        if let resume = partial.resumePoint {
            call.endpoint = endpoint.header("Range", "bytes=\(resume.offset)-").header("If-Range", resume.validator)
        }
        let body = call.bytes()
        let head: ResponseHead
        do {
            head = try await body.head
        } catch let error where error.statusCode == 416 && partial.resumePoint != nil {
            // The saved part no longer fits the file (it shrank): start again from the beginning.
            partial.discard()
            return try await download(into: partial, destination: destination, reporter: reporter)
        }
        guard head.isHTTP else {
            throw .transport(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "\(head.url.absoluteString) answered without an HTTP response"]))
        }
        let start = try partial.begin(with: head)
        let expectedBytes = Self.bodyLength(of: head).map { start + $0 }
        var savedBytes = start
        // A write that fails leaves the loop, and leaving it cancels the call.
        for try await chunk in body {
            try partial.write(chunk)
            savedBytes += Int64(chunk.count)
            let progress = TransferProgress(direction: .download, completedBytes: savedBytes, expectedBytes: expectedBytes)
            // 100% waits for the move below: it means the file is in place, not that the bytes arrived.
            if !progress.isComplete { await reporter?.report(progress) }
        }
        if let expectedBytes, savedBytes != expectedBytes {
            throw .transport(URLError(.networkConnectionLost, userInfo: [
                NSLocalizedDescriptionKey: "the body from \(head.url.absoluteString) ended after \(savedBytes) of its \(expectedBytes) bytes",
                NSURLErrorFailingURLErrorKey: head.url,
            ]))
        }
        try partial.finish(movingTo: destination)
        await reporter?.report(TransferProgress(direction: .download, completedBytes: savedBytes, expectedBytes: savedBytes))
        return DownloadedFile(url: destination, head: head, byteCount: savedBytes, resumedBytes: start)
    }

    /// The length of the body as it reaches the reader: `Content-Length`, unless the transport
    /// decodes a `Content-Encoding` (then the length counts the encoded bytes) or there is none.
    private static func bodyLength(of head: ResponseHead) -> Int64? {
        let encoding = head.value(forField: "Content-Encoding")?.lowercased() ?? "identity"
        guard encoding == "identity",
              let length = head.value(forField: "Content-Length").flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }),
              length >= 0 else { return nil }
        return length
    }

    /// Checks, before anything is sent, that a download can end at `destination`.
    private static func check(_ destination: URL, replacingExisting: Bool) throws(NetworkError) {
        guard destination.isFileURL else {
            throw .invalidRequest(RequestProblem(.body, "the download destination \(destination.absoluteString) is not a file URL"))
        }
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .invalidRequest(RequestProblem(.body, "the download destination's folder \(folder.path) does not exist"))
        }
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .invalidRequest(RequestProblem(.body, "the download destination \(destination.path) is a directory"))
        }
        if !replacingExisting, FileManager.default.fileExists(atPath: destination.path) {
            throw .invalidRequest(RequestProblem(.body, "\(destination.path) already exists; pass replacingExisting: true to replace it"))
        }
    }
}

/// A download's `progress` closure behind the throttle of ``ProgressReporter``: a report that is
/// due is handed to the closure in the closure's isolation, and the download waits for it.
private struct DownloadProgress: Sendable {
    private let handler: @isolated(any) @Sendable (TransferProgress) -> Void
    private let throttle: ProgressReporter
    private let due = Locked<[TransferProgress]>([])

    init(_ handler: @escaping @isolated(any) @Sendable (TransferProgress) -> Void) {
        self.handler = handler
        let due = due
        // `.immediate`: the throttle hands a due report over here, before `report` returns.
        throttle = ProgressReporter({ progress in due.withLock { $0.append(progress) } }, on: .immediate)
    }

    /// Passes `progress` to the closure when the throttle lets it through.
    func report(_ progress: TransferProgress) async {
        throttle.report(progress)
        for progress in due.withLock({ due in defer { due.removeAll() }; return due }) {
            await handler(progress)
        }
    }
}
