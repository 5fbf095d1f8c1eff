import Foundation

/// Reads `stream` from its start to its end in reads of at most `chunkSize` bytes.
func readAll(_ stream: InputStream, chunkSize: Int) throws -> Data {
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while stream.hasBytesAvailable {
        let count = stream.read(&buffer, maxLength: chunkSize)
        if count < 0 { throw stream.streamError ?? CocoaError(.fileReadUnknown) }
        if count == 0 { break }
        data.append(buffer, count: count)
    }
    return data
}

/// A file in a fresh temporary directory, removed with the directory when the value is released.
final class TemporaryFile: Sendable {
    let url: URL
    private let directory: URL

    init(named name: String, contents: Data) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(name)
        try contents.write(to: url)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A fresh folder under the temporary directory, removed when the value goes away.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names of the files in the folder, sorted.
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
