import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Item 8 of issue 15: versioned fixtures with a way forward, public file names, stable diffs.
@Suite struct FixtureHygieneTests {
    static let server = ServerConfig(host: "api.example.com", basePath: "v1")

    static func fixture(version: Int) -> String {
        #"{"version": \#(version), "request": {"method": "GET", "url": "https://api.example.com/v1/thing", "headers": {}}, "response": {"status": 200, "headers": {}}}"#
    }

    @Test(arguments: [
        (0, "older than the version 1 this Salvo reads; re-record it: run the tests once with SALVO_FIXTURE_MODE=rerecord"),
        (2, "newer than the version 1 this Salvo reads; update Salvo, or re-record it"),
    ])
    func aFixtureOfAnotherVersionSaysHowToReRecord(version: Int, message: String) async throws {
        let folder = try TemporaryFolder()
        let call = NetCall(server: Self.server, endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .replaying(from: folder.url))
        try Data(Self.fixture(version: version).utf8).write(to: folder.url.appendingPathComponent(try call.fixtureFileName()))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains(message) == true, "\(String(describing: error?.description))")
    }

    @Test func aVersion1FixtureWrittenByHandStillLoads() async throws {
        let folder = try TemporaryFolder()
        let call = NetCall(server: Self.server, endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .replaying(from: folder.url))
        try Data(Self.fixture(version: 1).utf8).write(to: folder.url.appendingPathComponent(try call.fixtureFileName()))
        #expect(try await call.response().statusCode == 200)
    }

    @Test func theFileNameOfACallIsPublicAndIsTheOneRecordingWrites() async throws {
        let folder = try TemporaryFolder()
        let network = ScriptedSession(.status(200))
        let call = NetCall(server: Self.server, endpoint: .post("/users", body: .json(["name": "ada"])), callbackQueue: .immediate,
                           firingFunction: .recording(to: folder.url, options: FixtureOptions(matchesBody: true), through: network))
        _ = try await call.response()
        _ = try await call.response()
        let name = try call.fixtureFileName(options: FixtureOptions(matchesBody: true))
        #expect(name.hasPrefix("POST_v1-users_") && name.hasSuffix(".json"))
        let second = try call.fixtureFileName(options: FixtureOptions(matchesBody: true), occurrence: 2)
        #expect(try folder.fileNames() == [name, second].sorted())
        #expect(second == String(name.dropLast(5)) + ".2.json")
    }

    @Test func reRecordingAnUnchangedExchangeGivesTheSameBytes() async throws {
        let folder = try TemporaryFolder()
        let clock = Locked(0)
        let network = ScriptedSession { _, _ in
            let second = clock.withLock { value in
                value += 1
                return value
            }
            return .status(200, headers: ["Date": "Mon, 23 Nov 2026 09:00:0\(second) GMT", "Content-Type": "application/json", "B": "2", "A": "1"],
                         body: Data(#"{"z":1,"a":2}"#.utf8))
        }
        let call = NetCall(server: Self.server, endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .recording(to: folder.url, through: network))
        let file = folder.url.appendingPathComponent(try call.fixtureFileName())
        _ = try await call.response()
        let first = try Data(contentsOf: file)
        _ = try await NetCall(server: Self.server, endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .recording(to: folder.url, through: network)).response()
        #expect(try Data(contentsOf: file) == first)
        let text = String(decoding: first, as: UTF8.self)
        #expect(!text.contains("Date") && !text.contains("recordedAt"))
        #expect(text.range(of: "\"A\"")?.lowerBound ?? text.endIndex < text.range(of: "\"B\"")?.lowerBound ?? text.startIndex, "keys are sorted")
    }

    @Test func timestampsAreKeptWhenAskedFor() async throws {
        let folder = try TemporaryFolder()
        let options = FixtureOptions(recordsTimestamps: true)
        let network = ScriptedSession(.status(200, headers: ["Date": "Mon, 23 Nov 2026 09:00:00 GMT"]))
        let call = NetCall(server: Self.server, endpoint: .get("/thing"), callbackQueue: .immediate,
                           firingFunction: .recording(to: folder.url, options: options, through: network))
        _ = try await call.response()
        let text = try String(contentsOf: folder.url.appendingPathComponent(try call.fixtureFileName(options: options)), encoding: .utf8)
        #expect(text.contains("\"recordedAt\"") && text.contains("Mon, 23 Nov 2026 09:00:00 GMT"))
    }

    @Test(arguments: [
        (#"{"version": true, "request": {"method": "GET", "url": "https://api.example.com/v1/thing", "headers": {}}, "response": {"status": 200, "headers": {}}}"#, "is not a Salvo fixture"),
        (#"{"version": 1, "request": {"method": "GET", "url": "https://api.example.com/v1/thing", "headers": {}}, "response": {"status": true, "headers": {}}}"#, "is not a Salvo fixture"),
        (#"{"version": 1, "request": {"method": "GET", "url": "https://api.example.com/v1/thing", "headers": {}, "bodyHash": 5}, "response": {"status": 200, "headers": {}}}"#, "is not a Salvo fixture"),
        (#"{"version": 1, "request": {"method": "GET", "url": "https://api.example.com/v1/thing", "headers": {}}, "response": {"status": 200.5, "headers": {}}}"#, "is not a Salvo fixture"),
    ])
    func theFastReaderRefusesWhatTheDecoderRefuses(contents: String, message: String) async throws {
        let folder = try TemporaryFolder()
        let call = NetCall(server: Self.server, endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .replaying(from: folder.url))
        try Data(contents.utf8).write(to: folder.url.appendingPathComponent(try call.fixtureFileName()))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains(message) == true, "\(String(describing: error?.description))")
    }

    @Test func nullOptionalFieldsReadAsAbsent() throws {
        let data = Data(#"{"version": 1, "request": {"method": "GET", "url": "u", "headers": {}, "bodyHash": null}, "response": {"status": 204, "headers": {"A": "1"}, "body": null, "url": null}}"#.utf8)
        let parsed = try #require(Fixture(parsing: data))
        #expect(parsed == (try JSONDecoder().decode(Fixture.self, from: data)))
    }
}
