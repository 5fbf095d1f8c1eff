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
    private let occurrences = FixtureOccurrences()

    /// A session recording what `base` exchanges into `folder`.
    public init(wrapping base: any NetworkSession = URLSession.shared, to folder: URL, options: FixtureOptions = .default) {
        self.base = base
        self.folder = folder
        self.options = options
    }

    /// Sends `request` through ``base`` and records the answer before passing it on.
    ///
    /// An exchange that repeats is kept occurrence by occurrence, in order (`….json`, `….2.json`,
    /// …), and replay answers them in the same order.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let name = FixtureName.fileName(for: request, options: options)
        return Self.send(request, through: base, recordingAs: name, occurrence: occurrences.next(for: name), in: folder, options: options, completion: completion)
    }

    /// Sends `request` through `base` and writes its exchange as `occurrence` of `name` in `folder`.
    static func send(
        _ request: URLRequest,
        through base: any NetworkSession,
        recordingAs name: String,
        occurrence: Int,
        in folder: URL,
        options: FixtureOptions,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        base.start(request) { data, response, error in
            guard error == nil, let http = response as? HTTPURLResponse else {
                completion(data, response, error)
                return
            }
            let file = FixtureOccurrences.file(name, occurrence: occurrence, in: folder)
            do {
                let fixture = Fixture(request: request, response: http, body: data, options: options)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try fixture.encoded().write(to: file, options: .atomic)
                if occurrence == 1 { FixtureOccurrences.removeLaterOccurrences(of: name, in: folder) }
                completion(data, response, nil)
            } catch {
                let reason = "could not write fixture \(file.path): \(error.localizedDescription)"
                completion(nil, nil, URLError(.cannotWriteToFile, userInfo: [NSLocalizedDescriptionKey: reason]))
            }
        }
    }
}
