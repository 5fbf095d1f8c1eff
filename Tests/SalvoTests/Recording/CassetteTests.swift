import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Items 1 (repeats kept in order) and 4 (record and playback modes) of issue 15, against a fake
/// network; CassetteIntegrationTests does the same against the loopback server.
@Suite struct CassetteTests {
    static let server = ServerConfig(host: "api.example.com")

    /// A network whose answers count up: `1`, `2`, … per request.
    static func countingNetwork() -> ScriptedSession {
        let counter = Locked(0)
        return ScriptedSession { _, _ in
            let next = counter.withLock { count in
                count += 1
                return count
            }
            return .status(200, headers: ["Content-Type": "text/plain", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"], body: Data(String(next).utf8))
        }
    }

    static func fire(_ path: String, _ firing: FiringFunction) async -> String {
        let call = NetCall(server: server, endpoint: .get(EndpointPath(path)), callbackQueue: .immediate, firingFunction: firing)
        do {
            return String(decoding: try await call.response().data, as: UTF8.self)
        } catch {
            return "error: \(error.description)"
        }
    }

    static let noEnvironment: [String: String] = [:]

    /// A cassette over `folder` in `mode` sending through `network`, whatever the environment says.
    static func cassette(_ folder: TemporaryFolder, _ mode: FixtureMode, _ network: ScriptedSession) -> Cassette {
        Cassette(at: folder.url, mode: mode, through: network, environment: noEnvironment)
    }

    @Test func recordingARepeatedExchangeKeepsEveryOccurrenceAndReplayServesThemInOrder() async throws {
        let folder = try TemporaryFolder()
        let recording = FiringFunction.recording(to: folder.url, through: Self.countingNetwork())
        for _ in 0..<3 { _ = await Self.fire("/poll", recording) }
        #expect(try folder.fileNames().count == 3)
        let replay = FiringFunction.replaying(from: folder.url)
        var answers: [String] = []
        for _ in 0..<4 { answers.append(await Self.fire("/poll", replay)) }
        #expect(answers == ["1", "2", "3", "3"], "after the last occurrence, the last answers again")
    }

    @Test func reRecordingFewerOccurrencesRemovesTheStaleOnes() async throws {
        let folder = try TemporaryFolder()
        let first = FiringFunction.recording(to: folder.url, through: Self.countingNetwork())
        for _ in 0..<3 { _ = await Self.fire("/poll", first) }
        _ = await Self.fire("/poll", .recording(to: folder.url, through: Self.countingNetwork()))
        #expect(try folder.fileNames().count == 1)
    }

    @Test func replayModeNeverTouchesTheNetworkAndSaysHowToRecord() async throws {
        let folder = try TemporaryFolder()
        let network = Self.countingNetwork()
        let cassette = Self.cassette(folder, .replay, network)
        let answer = await Self.fire("/missing", cassette.firingFunction)
        #expect(answer.contains("no recorded fixture for GET https://api.example.com/missing"))
        #expect(answer.contains("SALVO_FIXTURE_MODE=record-missing"))
        #expect(network.requests.isEmpty)
    }

    @Test func recordMissingRecordsOnlyWhatIsMissingThenReplays() async throws {
        let folder = try TemporaryFolder()
        let network = Self.countingNetwork()
        let first = Self.cassette(folder, .recordMissing, network)
        #expect(await Self.fire("/a", first.firingFunction) == "1")
        let second = Self.cassette(folder, .recordMissing, network)
        #expect(await Self.fire("/a", second.firingFunction) == "1")
        #expect(await Self.fire("/b", second.firingFunction) == "2")
        #expect(await Self.fire("/a", second.firingFunction) == "3", "a second occurrence was missing, so it is recorded")
        #expect(network.requests.map { $0.url?.path } == ["/a", "/b", "/a"])
        #expect(second.fileNames.count == 3)
    }

    @Test func rerecordSendsEverythingAndReplacesFixtures() async throws {
        let folder = try TemporaryFolder()
        let network = Self.countingNetwork()
        _ = await Self.fire("/a", Self.cassette(folder, .recordMissing, network).firingFunction)
        let rerecord = Self.cassette(folder, .rerecord, network)
        #expect(await Self.fire("/a", rerecord.firingFunction) == "2")
        #expect(await Self.fire("/a", Self.cassette(folder, .replay, network).firingFunction) == "2")
    }

    @Test func passThroughReplaysWhatExistsAndSendsTheRestUnrecorded() async throws {
        let folder = try TemporaryFolder()
        let network = Self.countingNetwork()
        _ = await Self.fire("/a", Self.cassette(folder, .recordMissing, network).firingFunction)
        let pass = Self.cassette(folder, .passThrough, network)
        #expect(await Self.fire("/a", pass.firingFunction) == "1")
        #expect(await Self.fire("/b", pass.firingFunction) == "2")
        #expect(pass.fileNames.count == 1)
    }

    @Test(arguments: [("rerecord", FixtureMode.rerecord), ("Record-Missing", .recordMissing), (" pass-through ", .passThrough), ("", .replay)])
    func oneEnvironmentVariableSwitchesTheMode(value: String, mode: FixtureMode) throws {
        let cassette = Cassette(at: URL(fileURLWithPath: "/tmp/none"), mode: .replay, environment: [FixtureMode.environmentVariable: value])
        #expect(cassette.mode == mode)
        #expect(try FixtureMode.fromEnvironment([FixtureMode.environmentVariable: value], default: .replay) == mode)
    }

    @Test func anUnknownModeFailsEveryCallListingTheModes() async throws {
        let cassette = Cassette(at: URL(fileURLWithPath: "/tmp/none"), environment: [FixtureMode.environmentVariable: "rerecrod"])
        let answer = await Self.fire("/a", cassette.firingFunction)
        #expect(answer.contains(#"SALVO_FIXTURE_MODE="rerecrod" is not a fixture mode; use one of replay, record-missing, rerecord, pass-through"#))
    }
}
