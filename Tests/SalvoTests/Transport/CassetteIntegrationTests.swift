import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Record modes and HAR round-trips against the loopback server; "offline" is shown by the
/// server's `/_count` for this test's own key staying put.
@Suite struct CassetteIntegrationTests {
    static let none: [String: String] = [:]

    @Test(arguments: TransportUnderTest.all)
    func recordMissingThenReplayNeverReachesTheServerAgain(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let server = try await ServerConfig.loopback()
        let endpoints: [Endpoint] = [.get("/echo/\(key)/a"), .post("/echo/\(key)/b", body: .json(["n": 1])), .get("/echo/\(key)/a")]
        func fire(_ cassette: Cassette) async throws -> [Data] {
            var bodies: [Data] = []
            for endpoint in endpoints {
                bodies.append(try await withTimeout {
                    try await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: cassette.firingFunction).response().data
                })
            }
            return bodies
        }
        let recorded = try await fire(Cassette(at: folder.url, mode: .recordMissing, through: transport.session, environment: Self.none))
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/a") == 2)
        #expect(try folder.fileNames().count == 3, "the repeated GET is kept as a second occurrence")

        let replayed = try await fire(Cassette(at: folder.url, mode: .recordMissing, through: transport.session, environment: Self.none))
        let strict = try await fire(Cassette(at: folder.url, mode: .replay, through: transport.session, environment: Self.none))
        #expect(replayed == recorded && strict == recorded)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/a") == 2, "replay must not reach the server")
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/b") == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func rerecordGoesBackToTheServerAndPassThroughOnlyForWhatIsMissing(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let server = try await ServerConfig.loopback()
        func fire(_ path: String, _ mode: FixtureMode) async throws {
            _ = try await withTimeout {
                try await NetCall(server: server, endpoint: .get(EndpointPath(path)), callbackQueue: .immediate,
                                  firingFunction: Cassette(at: folder.url, mode: mode, through: transport.session, environment: Self.none).firingFunction).response()
            }
        }
        try await fire("/echo/\(key)/a", .recordMissing)
        try await fire("/echo/\(key)/a", .rerecord)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/a") == 2)
        try await fire("/echo/\(key)/a", .passThrough)
        try await fire("/echo/\(key)/b", .passThrough)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/a") == 2)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/b") == 1)
        #expect(try folder.fileNames().count == 1, "pass-through records nothing")
    }

    @Test(arguments: TransportUnderTest.all)
    func realRecordingsRoundTripThroughHARAndReplayOffline(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder(), imported = try TemporaryFolder()
        let key = uniqueKey()
        let server = try await ServerConfig.loopback(defaultHeaders: ["Authorization": "Bearer live-secret"])
        let endpoints: [Endpoint] = [.get("/echo/\(key)/list", query: ["page": "1"]), .get("/bytes", query: ["n": "64"]), .get("/status/404"), .get("/cookie")]
        var live: [[ResponderEvent]] = []
        for endpoint in endpoints {
            live.append(await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .recording(to: folder.url, through: transport.session)).fireAndRecord())
        }
        let har = folder.url.deletingLastPathComponent().appendingPathComponent("\(key).har")
        defer { try? FileManager.default.removeItem(at: har) }
        try HTTPArchive.export(fixturesIn: folder.url, to: har)
        #expect(try !String(contentsOf: har, encoding: .utf8).contains("live-secret"))
        try HTTPArchive.importFixtures(from: har, into: imported.url)
        #expect(try imported.fileNames() == folder.fileNames())

        let served = try await LoopbackServer.count(path: "/echo/\(key)/list")
        var replayed: [[ResponderEvent]] = []
        for endpoint in endpoints {
            replayed.append(await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .replaying(from: imported.url)).fireAndRecord())
        }
        #expect(replayed.map { $0.last.map(Self.kind) } == live.map { $0.last.map(Self.kind) })
        #expect(replayed[1] == live[1], "binary bodies survive HAR's base64")
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/list") == served)
    }

    /// The handler and status of a final event, without an echoed body that holds a redacted secret.
    private static func kind(_ event: ResponderEvent) -> String {
        if case .data = event { return "data" }
        return event.description
    }
}
