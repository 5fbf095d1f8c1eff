import Foundation

/// Reading fixture files with errors that name the file.
enum FixtureFile {
    /// The bytes of the file at `url`.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` (part `.fixture`) when the file is missing,
    ///   unreadable or empty.
    static func read(_ url: URL) throws(NetworkError) -> Data {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw problem("fixture file \(url.path) does not exist")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw problem("fixture file \(url.path) could not be read: \(error.localizedDescription)")
        }
        guard !data.isEmpty else {
            throw problem("fixture file \(url.path) is empty")
        }
        return data
    }

    /// The error for a fixture that cannot be used.
    static func problem(_ reason: String) -> NetworkError {
        .invalidRequest(RequestProblem(.fixture, reason))
    }

    /// A one-line description of a decoding error: what is wrong, and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : "\"" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(Self.name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null but should be \(Self.name(of: type))"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a number"
        case is [String: String].Type: return "an object of strings"
        default: return "\(type)"
        }
    }
}
