import Foundation

/// The part of a streamed body that did not fit in memory: a temporary file written at its end
/// by the buffer's writer queue and read from its start by the reader, through handles of their own.
///
/// The file's name is removed as soon as both handles are open, so no spill file outlives its
/// process, even one killed with SIGKILL: the open descriptors keep the unnamed file readable and
/// writable, and the system frees it when the last one closes (when the last user lets go, so a
/// write or read still running finishes instead of racing a close).
final class BodyBacklog: Sendable {
    /// Where the file was made; nothing is there once the backlog exists.
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
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            try? writer.close()
            try? reader.close()
            throw Self.failure("could not unlink the stream's backlog file \(url.path) after opening it: \(error.localizedDescription)", code: .cannotRemoveFile)
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

    deinit {
        try? writer.close()
        try? reader.close()
    }

    private static func failure(_ reason: String, code: URLError.Code) -> NetworkError {
        .transport(URLError(code, userInfo: [NSLocalizedDescriptionKey: reason]))
    }
}
