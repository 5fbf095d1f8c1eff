import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Records real exchanges with the loopback server over each transport, then replays them with a
/// firing function that has no network access at all, and checks the server saw no further request.
///
/// The shared loopback server cannot be stopped (other suites use it), so "offline" is shown by
/// `LoopbackServer.count(path:)` staying put on this test's own key-namespaced paths.
@Suite struct RecordReplayIntegrationTests {
    struct Item: Codable, Equatable, Sendable {
        let name: String
    }

    @Test(arguments: TransportUnderTest.all)
    func recordThenReplayGivesIdenticalHandlersAndValuesWithoutTheServer(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let server = try await ServerConfig.loopback(defaultHeaders: ["Authorization": "Bearer live-secret"])
        let endpoints: [Endpoint] = [
            .get("/echo/\(key)/items", query: ["page": "2"]),
            .post("/echo/\(key)/items", body: .json(Item(name: "tea"))),
            .get("/status/404"),
            .get("/cookie"),
        ]
        func calls(_ firing: FiringFunction) -> [NetCall] {
            endpoints.map { NetCall(server: server, endpoint: $0, callbackQueue: .immediate, firingFunction: firing) }
        }

        var recorded: [[ResponderEvent]] = []
        for call in calls(.recording(to: folder.url, through: transport.session)) { recorded.append(await call.fireAndRecord()) }
        let recordedEcho = try JSONDecoder().decode(Echo.self, from: try Self.body(recorded[1]))
        let serverCount = try await LoopbackServer.count(path: "/echo/\(key)/items")
        #expect(serverCount == 2)

        var replayed: [[ResponderEvent]] = []
        for call in calls(.replaying(from: folder.url)) { replayed.append(await call.fireAndRecord()) }
        let replayedEcho = try await calls(.replaying(from: folder.url))[1].value(as: Echo.self)

        // Fixtures hold no secret, not even one the echo route repeats in its body.
        #expect(replayed == recorded.map { $0.map(Self.withoutLiveSecret) })
        #expect(recorded.map { $0.last } == [.data(try Self.body(recorded[0])), .data(try Self.body(recorded[1])), .serverError(status: 404), .data(try Self.body(recorded[3]))])
        #expect(replayedEcho.method == "POST" && replayedEcho.body == recordedEcho.body)
        #expect(try JSONDecoder().decode(Item.self, from: replayedEcho.body) == Item(name: "tea"))
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/items") == serverCount, "replay must not reach the server")

        let files = try folder.fileNames()
        #expect(files.count == 4, "\(files)")
        // Headers are redacted, and so is the token the echo route repeats in its body.
        for file in files {
            #expect(try !String(contentsOf: folder.url.appendingPathComponent(file), encoding: .utf8).contains("live-secret"))
            let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent(file))) as? [String: Any]
            let request = try #require(fixture?["request"] as? [String: Any])
            let response = try #require(fixture?["response"] as? [String: Any])
            #expect((request["headers"] as? [String: String])?["Authorization"] == "<redacted>")
            #expect(response["url"] == nil, "no redirect, so the response came from the request's URL")
            if file.hasPrefix("GET_cookie_") {
                #expect((response["headers"] as? [String: String])?.first { $0.key.lowercased() == "set-cookie" }?.value == "<redacted>")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func replayWithSimulatedLatencyStillAnswersOffline(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let server = try await ServerConfig.loopback()
        var call = NetCall(server: server, endpoint: .get("/echo/\(key)"), callbackQueue: .immediate, firingFunction: .recording(to: folder.url, through: transport.session))
        let live = try await call.response().data
        call.firingFunction = .replaying(from: folder.url, conditions: NetworkConditions(latency: 0.05...0.1, seed: 3))
        #expect(try await call.response().data == live)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)") == 1)
    }

    /// A list reached through a redirect whose next links are relative to the page's URL: replay
    /// resolves them against the URL the response came from, as production does.
    @Test(arguments: TransportUnderTest.all)
    func aPagerBehindARedirectWalksTheSamePagesInReplay(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let list = "/relative/\(key)/items"
        let recording = NetCall(server: try await .loopback(), endpoint: .get("/redirect", query: ["to": "\(list)?pages=3"]),
                                firingFunction: .recording(to: folder.url, through: transport.session))
        func walk(_ call: NetCall) async throws -> [Int] {
            let pager = Pager(call: call, strategy: .linkHeader(), decoder: .array(), id: \ListItem.id)
            try await withTimeout { await pager.loadPagesUntilEndOrError() }
            #expect(pager.error == nil, "\(String(describing: pager.error))")
            return pager.items.map(\.id)
        }

        #expect(try await walk(recording) == Array(1...9))
        let served = try await LoopbackServer.count(path: list)
        var replaying = recording
        replaying.firingFunction = .replaying(from: folder.url)
        #expect(try await walk(replaying) == Array(1...9))
        #expect(try await LoopbackServer.count(path: list) == served, "replay must not reach the server")
    }

    @Test(arguments: TransportUnderTest.all)
    func replayReportsTheURLARedirectEndedAt(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let recording = NetCall(server: try await .loopback(), endpoint: .get("/redirect", query: ["to": "/echo/\(key)/landed"]),
                                firingFunction: .recording(to: folder.url, through: transport.session))
        let live = try await withTimeout { try await recording.response() }
        var replaying = recording
        replaying.firingFunction = .replaying(from: folder.url)
        let replayed = try await replaying.response()
        #expect(live.url?.path == "/echo/\(key)/landed")
        #expect(replayed.url == live.url)
        let fixture = try Data(contentsOf: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)))
        let response = (try JSONSerialization.jsonObject(with: fixture) as? [String: Any])?["response"] as? [String: Any]
        #expect(response?["url"] as? String == live.url?.absoluteString)
    }

    /// `event` as replay gives it back: a body with the echoed token scrubbed, as recording does.
    private static func withoutLiveSecret(_ event: ResponderEvent) -> ResponderEvent {
        guard case .data(let data) = event else { return event }
        let text = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "Bearer live-secret", with: Redaction.placeholder)
            .replacingOccurrences(of: "live-secret", with: Redaction.placeholder)
        return .data(Data(text.utf8))
    }

    /// `/gzip` sends its body gzip-encoded: the server's `Content-Length` counts the encoded bytes
    /// and the transport hands over the decoded ones. Nothing is redacted, so the fixture and the
    /// replay keep the server's length beside `Content-Encoding: gzip`.
    @Test(arguments: TransportUnderTest.all)
    func aGzipResponseIsRecordedAndReplayedWithTheServersContentLength(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let server = try await ServerConfig.loopback()
        var call = NetCall(server: server, endpoint: .get("/gzip", query: ["n": "60"]), callbackQueue: .immediate,
                           firingFunction: .recording(to: folder.url, through: transport.session))
        let live = try await withTimeout { [call] in try await call.response() }
        let wireLength = try #require(live.headers["Content-Length"].flatMap { Int($0) })
        #expect(live.headers["Content-Encoding"] == "gzip")
        #expect(live.data.count > wireLength, "the body arrives decoded: \(live.data.count) bytes for \(wireLength) on the wire")

        let fixture = try Fixture.load(from: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)))
        #expect(fixture.response.headers.first { $0.key.lowercased() == "content-length" }?.value == String(wireLength))
        call.firingFunction = .replaying(from: folder.url)
        let replayed = try await call.response()
        #expect(replayed.data == live.data)
        #expect(replayed.headers["Content-Length"] == String(wireLength))
        #expect(replayed.headers["Content-Encoding"] == "gzip")
    }

    private static func body(_ events: [ResponderEvent]) throws -> Data {
        guard case .data(let data) = events.last else { throw TestServerError("no body in \(events)") }
        return data
    }
}
