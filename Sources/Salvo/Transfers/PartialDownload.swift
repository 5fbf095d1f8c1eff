import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The hidden file a download is written to until it is whole and, for a resumable download,
/// what the next download to the same destination needs to ask for only the rest.
///
/// A one-off download writes to `.NAME.salvo-UUID.partial` and removes it whatever happens. A
/// resumable one writes to `.NAME.salvo-partial` beside a record, `.NAME.salvo-partial.json`,
/// naming the URL and the version of the file (validator) the bytes belong to; both stay when the
/// download is interrupted and the server named a version, and go once the body is in place.
final class PartialDownload {
    /// Which file a resumable download's saved bytes belong to. The URL is kept as a hash, so a
    /// token in its query never lands on disk.
    private struct Record: Codable {
        var source: String
        var validator: String
    }

    /// Where the next firing resumes: the saved bytes and the version they belong to.
    struct ResumePoint {
        var offset: Int64
        var validator: String
    }

    /// The file the body is written to.
    let url: URL
    /// Where the body goes once it is whole; errors name it, since the partial file is hidden.
    private let destination: URL
    /// The resume record, for a resumable download.
    private let recordURL: URL?
    private let source: String
    private let sourceHash: String
    private let handle: FileHandle
    /// The version of the file the bytes being written belong to, once the head named one.
    private var validator: String?
    /// Set while the file holds bytes of a known version that the next firing can resume.
    private(set) var resumePoint: ResumePoint?

    /// Opens the partial file for `destination`: the one an interrupted resumable download of
    /// `source` left, or a new empty one.
    init(for destination: URL, from source: String, resumable: Bool) throws(NetworkError) {
        let folder = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        let url = folder.appendingPathComponent(resumable ? ".\(name).salvo-partial" : ".\(name).salvo-\(UUID().uuidString).partial")
        let recordURL = resumable ? folder.appendingPathComponent(".\(name).salvo-partial.json") : nil
        let sourceHash = FixtureName.bodyHash(Data(source.utf8))
        self.url = url
        self.destination = destination
        self.recordURL = recordURL
        self.source = source
        self.sourceHash = sourceHash
        let saved = recordURL.flatMap { Self.resumePoint(of: url, record: $0, sourceHash: sourceHash) }
        if saved == nil, !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw Self.failure("could not create \(url.path) for the download to \(destination.path)", code: .cannotCreateFile, source: source)
        }
        guard let handle = try? FileHandle(forWritingTo: url) else {
            throw Self.failure("could not open \(url.path) for the download to \(destination.path)", code: .cannotOpenFile, source: source)
        }
        self.handle = handle
        if let saved {
            do {
                try handle.seek(toOffset: UInt64(saved.offset))
                resumePoint = saved
            } catch {
                resumePoint = nil
            }
        }
    }

    /// Where the body the server answered with `head` starts, after making the file ready for it:
    /// after the saved bytes when it is the rest of them, otherwise at 0 with the file emptied.
    func begin(with head: ResponseHead) throws(NetworkError) -> Int64 {
        validator = Self.validator(of: head)
        var start: Int64 = 0
        if head.statusCode == 206 {
            let range = head.value(forField: "Content-Range")
            guard let first = range.flatMap(Self.firstByte(ofContentRange:)), first == 0 || first == resumePoint?.offset else {
                throw .transport(URLError(.badServerResponse, userInfo: [
                    NSLocalizedDescriptionKey: "\(source) answered 206 with Content-Range \(range ?? "missing") when asked for bytes \(resumePoint?.offset ?? 0)-",
                ]))
            }
            start = first
        }
        if start == 0 { try empty() }
        resumePoint = nil
        if let recordURL {
            if let validator, let record = try? JSONEncoder().encode(Record(source: sourceHash, validator: validator)) {
                try? record.write(to: recordURL, options: .atomic)
            } else {
                try? FileManager.default.removeItem(at: recordURL)
            }
        }
        return start
    }

    /// Appends `chunk` to the file.
    func write(_ chunk: Data) throws(NetworkError) {
        do {
            try handle.write(contentsOf: chunk)
        } catch {
            throw Self.failure("could not write the download to \(destination.path) (into \(url.path)): \(error.localizedDescription)", code: .cannotWriteToFile, source: source)
        }
    }

    /// Moves the whole body to `destination` in one step, replacing what was there: `rename(2)`,
    /// atomic within a folder. (swift-corelibs-foundation's `replaceItemAt` fails with "the file
    /// doesn't exist" when the destination does exist: measured, see Docs/Linux.md.)
    func finish(movingTo destination: URL) throws(NetworkError) {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw Self.failure("could not finish writing the download to \(destination.path) (into \(url.path)): \(error.localizedDescription)", code: .cannotWriteToFile, source: source)
        }
        guard rename(url.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw Self.failure("could not move the download to \(destination.path): \(reason)", code: .cannotMoveFile, source: source)
        }
        if let recordURL { try? FileManager.default.removeItem(at: recordURL) }
    }

    /// Forgets the saved bytes: the next firing asks for the whole body.
    func discard() {
        try? empty()
        resumePoint = nil
        if let recordURL { try? FileManager.default.removeItem(at: recordURL) }
    }

    /// Ends an interrupted download: keeps the file and its record when a later download can
    /// resume it (resumable, the server named a version, some bytes saved), removes both otherwise.
    func abandon() {
        let saved = (try? handle.offset()) ?? 0
        try? handle.close()
        let isResumable = recordURL != nil && (validator ?? resumePoint?.validator) != nil && saved > 0
        guard !isResumable else { return }
        try? FileManager.default.removeItem(at: url)
        if let recordURL { try? FileManager.default.removeItem(at: recordURL) }
    }

    private func empty() throws(NetworkError) {
        do {
            try handle.truncate(atOffset: 0)
        } catch {
            throw Self.failure("could not empty \(url.path) to download \(destination.path) again: \(error.localizedDescription)", code: .cannotWriteToFile, source: source)
        }
    }

    /// The saved bytes at `file`, when its record names a version of the same source.
    private static func resumePoint(of file: URL, record: URL, sourceHash: String) -> ResumePoint? {
        guard let data = try? Data(contentsOf: record),
              let saved = try? JSONDecoder().decode(Record.self, from: data), saved.source == sourceHash,
              let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber,
              size.int64Value > 0 else { return nil }
        return ResumePoint(offset: size.int64Value, validator: saved.validator)
    }

    /// The version `head` names for `If-Range`: a strong `ETag`, else `Last-Modified` (RFC 9110 §13.1.5).
    private static func validator(of head: ResponseHead) -> String? {
        if let tag = head.value(forField: "ETag"), !tag.hasPrefix("W/"), !tag.isEmpty { return tag }
        return head.value(forField: "Last-Modified").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// S of a `Content-Range: bytes S-E/T` header.
    private static func firstByte(ofContentRange value: String) -> Int64? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash].trimmingCharacters(in: .whitespaces))
    }

    /// A file-system failure of the download of `source`: the message names the URL and the file.
    private static func failure(_ reason: String, code: URLError.Code, source: String) -> NetworkError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: reason]
        if let url = URL(string: source) { userInfo[NSURLErrorFailingURLErrorKey] = url }
        return .transport(URLError(code, userInfo: userInfo))
    }
}
