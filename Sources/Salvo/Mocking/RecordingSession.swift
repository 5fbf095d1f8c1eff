import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``NetworkSession`` that sends through another session and writes every HTTP exchange to a
/// fixtures folder, secrets redacted, for ``ReplaySession`` to serve back offline.
///
/// The fixture is written before the completion runs, so once a handler has run its file exists.
/// Transport failures are passed on and not recorded. A fixture that cannot be written fails the
/// call with `.transport(URLError(.cannotWriteToFile))` naming the file: a recording that silently
/// lost exchanges would only surface later as a confusing replay miss.
///
/// ```swift
/// call.firingFunction = .recording(to: fixtures)   // same as .session(RecordingSession(…))
/// ```
public struct RecordingSession: NetworkSession {
    /// The session that really sends requests.
    public let base: any NetworkSession
    /// The folder fixtures are written to; created when missing.
    public let folder: URL
    /// How fixtures are named, matched and redacted.
    public let options: FixtureOptions

    /// A session recording what `base` exchanges into `folder`.
    public init(wrapping base: any NetworkSession = URLSession.shared, to folder: URL, options: FixtureOptions = .default) {
        self.base = base
        self.folder = folder
        self.options = options
    }

    /// Sends `request` through ``base`` and records the answer before passing it on.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let folder = folder, options = options
        return base.start(request) { data, response, error in
            guard error == nil, let http = response as? HTTPURLResponse else {
                completion(data, response, error)
                return
            }
            let file = folder.appendingPathComponent(FixtureName.fileName(for: request, options: options))
            do {
                let fixture = Fixture(request: request, response: http, body: data, redaction: options.redaction)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try fixture.encoded().write(to: file, options: .atomic)
                completion(data, response, nil)
            } catch {
                let reason = "could not write fixture \(file.path): \(error.localizedDescription)"
                completion(nil, nil, URLError(.cannotWriteToFile, userInfo: [NSLocalizedDescriptionKey: reason]))
            }
        }
    }
}
