import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FiringFunction {
    /// Fires through `session` (production by default) and writes every exchange to `folder`.
    ///
    /// ```swift
    /// call.firingFunction = .recording(to: URL(fileURLWithPath: "Fixtures/Users"))
    /// ```
    public static func recording(
        to folder: URL,
        options: FixtureOptions = .default,
        through session: any NetworkSession = URLSession.shared
    ) -> FiringFunction {
        .session(RecordingSession(wrapping: session, to: folder, options: options))
    }

    /// Answers every call from fixtures in `folder`, offline; a missing fixture fails naming the request and folder.
    ///
    /// ```swift
    /// call.firingFunction = .replaying(from: URL(fileURLWithPath: "Fixtures/Users"))
    /// ```
    ///
    /// - Parameters:
    ///   - folder: where the fixtures are.
    ///   - options: naming, matching and redaction; use the options they were recorded with.
    ///   - conditions: simulated latency, bandwidth and failures.
    ///   - clock: what waits out latency, recorded stream timing and retry delays; pass
    ///     `.immediate` or a test clock in tests.
    public static func replaying(
        from folder: URL,
        options: FixtureOptions = .default,
        conditions: NetworkConditions = .ideal,
        clock: NetworkClock = .live
    ) -> FiringFunction {
        .session(ReplaySession(from: folder, options: options, conditions: conditions, clock: clock), clock: clock)
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
        options: FixtureOptions = .default,
        through session: any NetworkSession = URLSession.shared
    ) -> FiringFunction {
        Cassette(at: folder, mode: mode, options: options, through: session).firingFunction
    }
}
