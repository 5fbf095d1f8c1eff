import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FiringFunction {
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
        options: FixtureOptions = FixtureOptions(),
        conditions: NetworkConditions = NetworkConditions(),
        clock: NetworkClock = .live
    ) -> FiringFunction {
        .session(ReplaySession(from: folder, options: options, conditions: conditions, clock: clock), clock: clock)
    }
}
