import Foundation
@_spi(Transport) import Salvo

/// How a ``Cassette`` uses its fixtures: replay only, record what is missing, re-record
/// everything, or send what has no fixture to the network without recording it.
///
/// Chosen in code or, for a whole test run, with one environment variable:
///
/// ```sh
/// SALVO_FIXTURE_MODE=rerecord swift test      # refresh every fixture against the live server
/// ```
public enum FixtureMode: String, Sendable, Hashable, CaseIterable {
    /// Answer from fixtures only; a request without one fails. The mode for CI.
    case replay = "replay"
    /// Answer from fixtures; record the requests that have none.
    case recordMissing = "record-missing"
    /// Send every request to the network and record it, replacing what was there.
    case rerecord = "rerecord"
    /// Answer from fixtures; send the requests that have none to the network without recording.
    case passThrough = "pass-through"

    /// `SALVO_FIXTURE_MODE`: set it to a mode's raw value (`replay`, `record-missing`,
    /// `rerecord`, `pass-through`) to override the mode every cassette was given in code.
    public static let environmentVariable = Fixture.modeVariable

    /// The mode `environment` sets with ``environmentVariable``, or `fallback` when it sets none.
    ///
    /// - Throws: `NetworkError/incompleteSetup(_:)` (part `.fixture`) naming the value and the
    ///   valid modes when the variable is set to something else.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        default fallback: FixtureMode
    ) throws(NetworkError) -> FixtureMode {
        guard let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return fallback }
        guard let mode = FixtureMode(rawValue: value.lowercased()) else {
            let modes = allCases.map(\.rawValue).joined(separator: ", ")
            throw FixtureFile.problem("\(environmentVariable)=\"\(value)\" is not a fixture mode; use one of \(modes)")
        }
        return mode
    }
}
