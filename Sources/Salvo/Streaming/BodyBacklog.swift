import Foundation

/// The part of a streamed body that did not fit in memory: a temporary file written at its end
/// by the buffer's writer queue and read from its start by the reader, through handles of their own.
///
/// Deleting it removes the file's name at once; the handles close when the last user lets go,
/// so a write or read still running finishes on the unlinked file instead of racing a close.
final class BodyBacklog: Sendable {
    let url: URL
    private let writer: FileHandle
    private let reader: FileHandle

    init() throws(NetworkError) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-stream-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let writer = try? FileHandle(forWritingTo: url),
              let reader = try? FileHandle(forReadingFrom: url)
        else {
            try? FileManager.default.removeItem(at: url)
            throw Self.failure("could not create the stream's backlog file \(url.path)", code: .cannotCreateFile)
        }
        self.writer = writer
        self.reader = reader
    }

    /// `existing`, or a new backlog file.
    static func existing(_ existing: BodyBacklog?) throws(NetworkError) -> BodyBacklog {
        if let existing { return existing }
        return try BodyBacklog()
    }

    /// Writes `parts` at the file's end, in order: only the buffer's writer queue writes, so the
    /// writer's offset is always there.
    func append(_ parts: [Data]) throws(NetworkError) {
        do {
            for part in parts { try writer.write(contentsOf: part) }
        } catch {
            throw Self.failure("could not write the stream's backlog to \(url.path): \(error.localizedDescription)", code: .cannotWriteToFile)
        }
    }

    func read(_ count: Int, at offset: UInt64) throws(NetworkError) -> Data {
        do {
            try reader.seek(toOffset: offset)
            let part = try reader.read(upToCount: count) ?? Data()
            guard part.count == count else { throw URLError(.cannotOpenFile) }
            return part
        } catch {
            throw Self.failure("could not read the stream's backlog from \(url.path): \(error.localizedDescription)", code: .cannotOpenFile)
        }
    }

    func delete() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit {
        try? writer.close()
        try? reader.close()
    }

    private static func failure(_ reason: String, code: URLError.Code) -> NetworkError {
        .transport(URLError(code, userInfo: [NSLocalizedDescriptionKey: reason]))
    }
}
