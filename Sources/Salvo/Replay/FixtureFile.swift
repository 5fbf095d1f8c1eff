import Foundation

/// Reading fixture files with errors that name the file.
package enum FixtureFile {
    /// The bytes of the file at `url`.
    ///
    /// - Throws: ``NetworkError/incompleteSetup(_:)`` (part `.fixture`) when the file is missing,
    ///   unreadable or empty.
    package static func read(_ url: URL) throws(NetworkError) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw problem("fixture file \(url.path) does not exist")
            }
            throw problem("fixture file \(url.path) could not be read: \(error.localizedDescription)")
        }
        guard !data.isEmpty else {
            throw problem("fixture file \(url.path) is empty")
        }
        return data
    }

    /// The error for a fixture that cannot be used.
    package static func problem(_ reason: String) -> NetworkError {
        .incompleteSetup(SetupProblem(.fixture, reason))
    }

    /// The sentence `error` says about a fixture, without the error's framing.
    package static func reason(of error: NetworkError) -> String {
        if case .incompleteSetup(let problem) = error { return problem.reason }
        return error.description
    }
}
