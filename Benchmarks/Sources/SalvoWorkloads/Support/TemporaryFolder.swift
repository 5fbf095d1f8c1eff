import Foundation

/// Runs `body` with a new, empty folder in the temporary directory named `prefix` and a UUID,
/// and removes the folder and everything in it afterwards.
public func withTemporaryFolder<Result>(named prefix: String, _ body: (URL) throws -> Result) throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
