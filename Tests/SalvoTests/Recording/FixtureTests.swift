import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct FixtureTests {
    static func request(_ method: String = "GET", _ url: String, body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test func fileNamesAreDeterministicReadableAndDistinct() {
        let options = FixtureOptions()
        let name = FixtureName.fileName(for: Self.request("get", "https://api.example.com/v1/users/42?page=2"), options: options)
        #expect(name == FixtureName.fileName(for: Self.request("GET", "https://api.example.com/v1/users/42?page=2"), options: options))
        #expect(name.hasPrefix("GET_v1-users-42_"))
        #expect(name.hasSuffix(".json"))
        #expect(name.count == "GET_v1-users-42_".count + 12 + ".json".count)
        #expect(name != FixtureName.fileName(for: Self.request("GET", "https://api.example.com/v1/users/42?page=3"), options: options))
        #expect(name != FixtureName.fileName(for: Self.request("DELETE", "https://api.example.com/v1/users/42?page=2"), options: options))
        #expect(name != FixtureName.fileName(for: Self.request("GET", "https://staging.example.com/v1/users/42?page=2"), options: options))
    }

    @Test func fileNamesMatchAPinnedValueSoTheyNeverDriftBetweenRuns() {
        #expect(FixtureName.fnv1a64(Data("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        let name = FixtureName.fileName(for: Self.request("GET", "http://127.0.0.1:8080/"), options: FixtureOptions())
        // FNV-1a 64 of "GET http://127.0.0.1:8080/" is 6ee5a19002890ab7 (checked with a Python one-liner).
        #expect(name == "GET_root_6ee5a1900289.json")
    }

    @Test func oddPathCharactersAreSanitisedAndLongPathsCut() {
        let name = FixtureName.fileName(for: Self.request("GET", "https://h.example/files/a%2Fb%20c/\(String(repeating: "x", count: 200))"), options: FixtureOptions())
        #expect(name.hasPrefix("GET_files-a_b_c-xxx"))
        #expect(!name.contains("/") && !name.contains(" ") && !name.contains("%"))
        #expect(name.count <= 4 + 80 + 1 + 12 + 5)
    }

    @Test func secretQueryValuesDoNotChangeTheNameAndOriginCanBeIgnored() {
        let options = FixtureOptions(redaction: .default.adding(queryKeys: ["token"]), matchesOrigin: false)
        let first = FixtureName.fileName(for: Self.request("GET", "http://127.0.0.1:5000/a?token=one"), options: options)
        let second = FixtureName.fileName(for: Self.request("GET", "https://staging.example.com/a?token=two"), options: options)
        #expect(first == second)
    }

    @Test func bodyHashSeparatesRequestsOnlyWhenConfigured() {
        let a = Self.request("POST", "https://h.example/search", body: "q=a"), b = Self.request("POST", "https://h.example/search", body: "q=b")
        #expect(FixtureName.fileName(for: a, options: FixtureOptions()) == FixtureName.fileName(for: b, options: FixtureOptions()))
        let byBody = FixtureOptions(matchesBody: true)
        #expect(FixtureName.fileName(for: a, options: byBody) != FixtureName.fileName(for: b, options: byBody))
    }

    @Test func recordingRedactsSecretsBeforeTheyTouchDisk() async throws {
        let folder = try TemporaryFolder()
        let base = ScriptedSession(.status(200, headers: ["Set-Cookie": "session=s3cret", "Content-Type": "application/json"], body: Data(#"{"ok":true}"#.utf8)))
        let options = FixtureOptions(redaction: .default.adding(headers: ["X-Api-Key"], queryKeys: ["api_key"]))
        let endpoint = Endpoint.post("/login", body: .json(["password": "hunter2"])).header("Authorization", "Bearer t0ken").header("X-Api-Key", "k3y")
            .adding(query: [URLQueryItem(name: "api_key", value: "q5ecret")])
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: endpoint, callbackQueue: .immediate,
                           firingFunction: .recording(to: folder.url, options: options, through: base))
        _ = try await call.response()
        let files = try folder.fileNames()
        #expect(files.count == 1)
        let text = try String(contentsOf: folder.url.appendingPathComponent(try #require(files.first)), encoding: .utf8)
        for secret in ["s3cret", "t0ken", "k3y", "q5ecret", "hunter2"] {
            #expect(!text.contains(secret), "\(secret) leaked into the fixture")
        }
        #expect(text.contains("<redacted>"))
        #expect(text.contains(#""bodyHash" : "fnv1a64:"#))
        #expect(text.contains(#""text" : "{\"ok\":true}""#))
        #expect(text.contains(#""version" : 1"#))
    }

    @Test func aBodyShortenedByRedactionIsRecordedAndReplayedWithItsOwnContentLength() async throws {
        let folder = try TemporaryFolder()
        let body = Data(#"{"access_token":"a-long-secret-access-token-value-0123456789","scope":"notes"}"#.utf8)
        let server = ScriptedSession(.status(200, headers: ["Content-Type": "application/json", "Content-Length": String(body.count)], body: body))
        let recorder = NetCall(server: ServerConfig(host: "h.example"), endpoint: .post("/token"), callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, through: server))
        _ = try await recorder.response()
        let fixture = try Fixture.load(from: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)))
        let stored = try #require(fixture.response.body?.data)
        #expect(stored.count < body.count)
        #expect(fixture.response.headers["Content-Length"] == String(stored.count))
        var replayer = recorder
        replayer.firingFunction = .replaying(from: folder.url)
        let replayed = try await replayer.response()
        #expect(replayed.data == stored)
        #expect(replayed.headers["Content-Length"] == String(stored.count))
        #expect(replayed.urlResponse?.expectedContentLength == Int64(stored.count))
    }

    @Test func aFixtureRecordedWithTheServersContentLengthReplaysTheStoredBodysLength() async throws {
        // Recorded before the length was corrected on recording: 90 announced, 22 stored.
        let folder = try TemporaryFolder()
        let request = Self.request("GET", "https://h.example/me")
        let file = folder.url.appendingPathComponent(FixtureName.fileName(for: request, options: FixtureOptions()))
        let old = #"{"version": 1, "request": {"method": "GET", "url": "https://h.example/me", "headers": {}}, "#
            + #""response": {"status": 200, "headers": {"content-length": "90"}, "body": {"text": "{\"token\":\"<redacted>\"}"}}}"#
        try Data(old.utf8).write(to: file)
        for firing in [FiringFunction.replaying(from: folder.url), .mock(.fixture(file))] {
            let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/me"), callbackQueue: .immediate, firingFunction: firing)
            let response = try await call.response()
            #expect(response.data.count == 22)
            #expect(response.headers["Content-Length"] == "22")
        }
    }

    /// A gzip response: the server's `Content-Length` counts the 50 encoded bytes, the body arrives
    /// decoded (328 bytes). Nothing was redacted, so the fixture and the replay keep the 50.
    @Test func anEncodedResponseKeepsTheServersContentLengthWhenNothingWasRedacted() async throws {
        let folder = try TemporaryFolder()
        let body = Data(("{\"words\":\"" + String(repeating: "salvo ", count: 52) + "end!\"}").utf8)
        #expect(body.count == 328)
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": "50"]
        let recorder = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/words"), callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, through: ScriptedSession(.status(200, headers: headers, body: body))))
        _ = try await recorder.response()
        let fixture = try Fixture.load(from: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)))
        #expect(fixture.response.body?.data == body)
        #expect(fixture.response.headers["Content-Length"] == "50")
        var replayer = recorder
        replayer.firingFunction = .replaying(from: folder.url)
        let replayed = try await replayer.response()
        #expect(replayed.data == body)
        #expect(replayed.headers["Content-Length"] == "50")
        #expect(replayed.headers["Content-Encoding"] == "gzip")
    }

    /// A redaction that changed an encoded body is the one thing that changes its length field.
    @Test func anEncodedBodyChangedByRedactionIsRecordedWithItsOwnLength() async throws {
        let folder = try TemporaryFolder()
        let body = Data(#"{"access_token":"a-long-secret-access-token-value-0123456789","scope":"notes"}"#.utf8)
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": "61"]
        let recorder = NetCall(server: ServerConfig(host: "h.example"), endpoint: .post("/token"), callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, through: ScriptedSession(.status(200, headers: headers, body: body))))
        _ = try await recorder.response()
        let fixture = try Fixture.load(from: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)))
        let stored = try #require(fixture.response.body?.data)
        #expect(stored != body)
        #expect(fixture.response.headers["Content-Length"] == String(stored.count))
    }

    @Test func aHEADFixtureKeepsTheLengthItAnnounces() {
        #expect(Fixture.Response.headers(["Content-Length": "1234"], countingBody: nil) == ["Content-Length": "1234"])
    }

    @Test func binaryBodiesRoundTripAsBase64() async throws {
        let folder = try TemporaryFolder()
        let bytes = Data([0, 255, 1, 254, 0x80])
        let recorder = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/blob"), callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, through: ScriptedSession(.status(200, body: bytes))))
        _ = try await recorder.response()
        var replayer = recorder
        replayer.firingFunction = .replaying(from: folder.url)
        #expect(try await replayer.response().data == bytes)
    }

    @Test func replayWithoutAFixtureNamesTheRequestAndTheFolder() async throws {
        let folder = try TemporaryFolder()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/missing", query: ["a": "1"]), callbackQueue: .immediate,
                           firingFunction: .replaying(from: folder.url))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        let message = error?.description ?? ""
        #expect(message.contains("GET https://h.example/missing?a=1"))
        #expect(message.contains(folder.url.path))
        #expect(message.contains("GET_missing_"))
    }

    static let badFixtures: [(String, String)] = [
        ("", "is empty"),
        ("<html>", "is not JSON"),
        (#"{"version": 1, "request": {"method": "GET", "url": "x", "headers": {}}}"#, #"missing "response""#),
        (#"{"version": 1, "request": {"method": "GET", "url": "x", "headers": {}}, "response": {"status": "200", "headers": {}}}"#, #""response.status" should be a number"#),
        (#"{"version": 9, "request": {"method": "GET", "url": "x", "headers": {}}, "response": {"status": 200, "headers": {}}}"#, "format version 9, newer than"),
        (#"{"version": 1, "request": {"method": "GET", "url": "x", "headers": {}}, "response": {"status": 99, "headers": {}}}"#, "outside 100–599"),
        (#"{"version": 1, "request": {"method": "GET", "url": "x", "headers": {}}, "response": {"status": 200, "headers": {}, "body": {"base64": "%%"}}}"#, "neither"),
        ("[1, 2]", "should be"),
        (#"{"version": 1, "request": {"method": "GET", "url": "x", "headers": {}}, "response": {"status": 200, "headers": {}, "url": "http://[::1"}}"#, "is not a URL"),
    ]

    @Test(arguments: badFixtures)
    func malformedFixturesFailNamingTheFileAndNeverCrash(contents: String, message: String) async throws {
        let folder = try TemporaryFolder()
        let request = Self.request("GET", "https://h.example/thing")
        let file = folder.url.appendingPathComponent(FixtureName.fileName(for: request, options: FixtureOptions()))
        try Data(contents.utf8).write(to: file)
        for firing in [FiringFunction.replaying(from: folder.url), .mock(.fixture(file))] {
            let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: firing)
            let error = await #expect(throws: NetworkError.self) { try await call.response() }
            let description = error?.description ?? ""
            #expect(description.contains(file.path), "\(description)")
            #expect(description.contains(message), "\(description)")
        }
    }

    @Test func aFixtureRecordedForAnotherRequestIsRefused() async throws {
        let folder = try TemporaryFolder()
        let request = Self.request("GET", "https://h.example/thing")
        let file = folder.url.appendingPathComponent(FixtureName.fileName(for: request, options: FixtureOptions()))
        let other = #"{"version": 1, "request": {"method": "GET", "url": "https://h.example/other", "headers": {}}, "response": {"status": 200, "headers": {}}}"#
        try Data(other.utf8).write(to: file)
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .replaying(from: folder.url))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains("was recorded for GET https://h.example/other") == true)
    }

    @Test func anUnwritableFolderFailsTheRecordingCallNamingTheFile() async throws {
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/x"), callbackQueue: .immediate,
                           firingFunction: .recording(to: blocker, through: ScriptedSession(.status(200))))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains(blocker.path) == true)
    }

    @Test func transportFailuresPassThroughAndAreNotRecorded() async throws {
        let folder = try TemporaryFolder()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/x"), callbackQueue: .immediate,
                           firingFunction: .recording(to: folder.url, through: ScriptedSession(.failure(.timedOut))))
        #expect(await call.fireAndRecord() == [.task, .noResponse, .error(.transport(URLError(.timedOut))), .errorData(nil)])
        #expect(try folder.fileNames().isEmpty)
    }

    @Test func recordedBodiesLoseSecretFieldsByDefaultAndReplayStillMatchesByBody() async throws {
        let folder = try TemporaryFolder()
        let answer = Data(#"{"access_token":"at-0001","profile":{"name":"ann","refresh_token":"rt-0002"},"echo":"password=pw-0003"}"#.utf8)
        let base = ScriptedSession(.status(200, headers: ["Content-Type": "application/json"], body: answer))
        let options = FixtureOptions(matchesBody: true)
        let server = ServerConfig(host: "api.example.com")
        let login = Endpoint.post("/login", body: .form(["user": "ann", "password": "pw-0003"]))
        let recorder = NetCall(server: server, endpoint: login, callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, options: options, through: base))
        _ = try await recorder.response()
        let file = folder.url.appendingPathComponent(try #require(try folder.fileNames().first))
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in ["at-0001", "rt-0002", "pw-0003"] {
            #expect(!text.contains(secret), "\(secret) leaked into the fixture:\n\(text)")
        }
        #expect(text.contains("ann"))

        var replayer = recorder
        replayer.firingFunction = .replaying(from: folder.url, options: options)
        let replayed = try await replayer.response()
        #expect(replayed.statusCode == 200)
        var other = replayer
        other.endpoint = .post("/login", body: .form(["user": "bob", "password": "pw-0003"]))
        await #expect(throws: NetworkError.self) { try await other.response() }
    }

    @Test func aResponseAfterARedirectIsReplayedFromTheURLItCameFrom() async throws {
        let folder = try TemporaryFolder()
        let base = RedirectedSession(finalURL: "https://api.example.com/v2/items?page=1&access_token=t0p")
        let recorder = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/v1/items"), callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, through: base))
        #expect(try await recorder.response().url?.absoluteString == "https://api.example.com/v2/items?page=1&access_token=t0p")

        let text = try String(contentsOf: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)), encoding: .utf8)
        #expect(text.contains(#""url" : "https://api.example.com/v2/items?page=1&access_token=%3Credacted%3E""#), "\(text)")
        #expect(!text.contains("t0p"))

        for firing in [FiringFunction.replaying(from: folder.url), .mock(.fixture(folder.url.appendingPathComponent(try folder.fileNames()[0])))] {
            var replayer = recorder
            replayer.firingFunction = firing
            let replayed = try await replayer.response()
            #expect(replayed.url?.path == "/v2/items")
            #expect(replayed.url?.query == "page=1&access_token=%3Credacted%3E")
        }
    }

    @Test func aResponseWithoutARedirectStoresNoURLAndReplaysTheRequests() async throws {
        let folder = try TemporaryFolder()
        let recorder = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/v1/items"), callbackQueue: .immediate,
                               firingFunction: .recording(to: folder.url, through: ScriptedSession(.status(200))))
        _ = try await recorder.response()
        let data = try Data(contentsOf: folder.url.appendingPathComponent(try #require(try folder.fileNames().first)))
        let response = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["response"] as? [String: Any])
        #expect(response["url"] == nil)
        var replayer = recorder
        replayer.firingFunction = .replaying(from: folder.url)
        #expect(try await replayer.response().url?.absoluteString == "https://api.example.com/v1/items")
    }

    /// Fixtures written before `response.url` existed have none: they replay from the request's URL.
    @Test func aFixtureWithoutAResponseURLStillReplays() async throws {
        let folder = try TemporaryFolder()
        let request = Self.request("GET", "https://h.example/thing")
        let file = folder.url.appendingPathComponent(FixtureName.fileName(for: request, options: FixtureOptions()))
        let old = #"{"version": 1, "request": {"method": "GET", "url": "https://h.example/thing", "headers": {}}, "response": {"status": 200, "headers": {}, "body": {"text": "ok"}}}"#
        try Data(old.utf8).write(to: file)
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/thing"), callbackQueue: .immediate, firingFunction: .replaying(from: folder.url))
        let response = try await call.response()
        #expect(response.data == Data("ok".utf8))
        #expect(response.url?.absoluteString == "https://h.example/thing")
    }
}

/// Answers every request with a 200 from `finalURL`, as `URLSession` does after following a redirect.
private struct RedirectedSession: NetworkSession {
    let finalURL: String

    func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> any NetworkSessionTask {
        let url = URL(string: finalURL) ?? URL(fileURLWithPath: "/")
        completion(Data("{}".utf8), HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil), nil)
        return ScriptedSessionTask { _, _, _ in }
    }
}
