import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// A folder of fixtures and the ``FixtureMode`` it is used in: replay, record what is missing,
/// re-record, or pass through to the network. A `NetworkSession`, so calls fire through it
/// with `FiringFunction/cassette(at:mode:options:through:)` or ``firingFunction``.
///
/// ```swift
/// let cassette = Cassette(at: fixtures.appendingPathComponent("checkout"), mode: .recordMissing)
/// api.firing = cassette.firingFunction
/// ```
///
/// ``FixtureMode/environmentVariable`` (`SALVO_FIXTURE_MODE`), when set, overrides the mode given
/// here, so a whole test run switches from replay to re-record with one variable. A repeated
/// exchange is recorded and replayed occurrence by occurrence, in order. Give each test its own
/// cassette (SalvoTesting's `.cassette` trait does) so parallel tests never share fixtures or counts.
public struct Cassette: NetworkSession {
    /// The folder the fixtures live in; created when the first one is recorded.
    public let folder: URL
    /// The mode in effect: the environment's, else the one given in code.
    public let mode: FixtureMode
    /// How fixtures are named, matched and redacted.
    let options: FixtureOptions
    /// The session that sends what is recorded or passed through.
    let base: any NetworkSession
    private let modeProblem: NetworkError?
    private let replayer: MockSession
    private let occurrences = FixtureOccurrences()

    /// A cassette over `folder`.
    ///
    /// - Parameters:
    ///   - folder: where the fixtures are.
    ///   - mode: the mode unless `environment` sets ``FixtureMode/environmentVariable``.
    ///   - options: naming, matching and redaction; the same for recording and replay.
    ///   - base: what sends requests that are recorded or passed through.
    ///   - conditions: simulated latency, bandwidth and failures for replayed answers.
    ///   - clock: what waits out simulated latency and the recorded timing of replayed streams.
    ///   - environment: where the mode variable is read; the process environment by default.
    ///     An unknown value fails every call with a message listing the modes.
    public init(
        at folder: URL,
        mode: FixtureMode = .replay,
        options: FixtureOptions = FixtureOptions(),
        through base: any NetworkSession = URLSession.shared,
        conditions: NetworkConditions = NetworkConditions(),
        clock: NetworkClock = .live,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.folder = folder
        self.options = options
        self.base = base
        do {
            self.mode = try FixtureMode.fromEnvironment(environment, default: mode)
            modeProblem = nil
        } catch {
            self.mode = mode
            modeProblem = error
        }
        replayer = MockSession(conditions: conditions, clock: clock) { request in
            ReplaySession.answer(request.request, occurrence: 1, folder: folder, options: options)
        }
    }

    /// Fires through this cassette.
    public var firingFunction: FiringFunction { .session(self) }

    /// The fixture file names in ``folder``, sorted; empty when it does not exist yet.
    public var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Answers `request` as ``mode`` says: from its fixture, or through ``base``, recording it or not.
    @_spi(Transport) public func start(_ request: URLRequest, options exchangeOptions: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        if let modeProblem {
            return replayer.start(request, options: exchangeOptions, answering: .problem(FixtureFile.reason(of: modeProblem), part: .fixture), receiver: receiver)
        }
        let name = FixtureName.fileName(for: request, options: options)
        let occurrence = occurrences.next(for: name)
        let replays: Bool
        switch mode {
        case .replay: replays = true
        case .recordMissing: replays = FileManager.default.fileExists(atPath: FixtureOccurrences.file(name, occurrence: occurrence, in: folder).path)
        case .passThrough: replays = FixtureOccurrences.existingFile(name, occurrence: occurrence, in: folder) != nil
        case .rerecord: replays = false
        }
        if replays {
            let answer = ReplaySession.answer(request, named: name, occurrence: occurrence, folder: folder, options: options)
            return replayer.start(request, options: exchangeOptions, answering: answer, receiver: receiver)
        }
        if mode == .passThrough { return base.start(request, options: exchangeOptions, receiver: receiver) }
        let destination = FixtureRecorder.Destination(request: request, name: name, occurrence: occurrence, folder: folder, options: options)
        return base.start(request, options: exchangeOptions, receiver: FixtureRecorder(passingTo: receiver, recordingTo: destination, isStreamed: exchangeOptions.readsBodyAsItArrives))
    }
}
