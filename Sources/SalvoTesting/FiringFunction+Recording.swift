import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

extension FiringFunction {
    /// Fires through `session` (production by default) and writes every exchange to `folder`.
    ///
    /// ```swift
    /// call.firingFunction = .recording(to: URL(fileURLWithPath: "Fixtures/Users"))
    /// ```
    public static func recording(
        to folder: URL,
        options: FixtureOptions = FixtureOptions(),
        through session: any NetworkSession = URLSession.shared
    ) -> FiringFunction {
        .session(RecordingSession(wrapping: session, to: folder, options: options))
    }
}

extension FiringFunction {
    /// Fires through a ``Cassette`` over `folder` in `mode` (unless `SALVO_FIXTURE_MODE` overrides it).
    ///
    /// ```swift
    /// call.firingFunction = .cassette(at: fixtures, mode: .recordMissing)
    /// ```
    public static func cassette(
        at folder: URL,
        mode: FixtureMode = .replay,
        options: FixtureOptions = FixtureOptions(),
        through session: any NetworkSession = URLSession.shared
    ) -> FiringFunction {
        Cassette(at: folder, mode: mode, options: options, through: session).firingFunction
    }
}
