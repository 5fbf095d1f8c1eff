import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// Mock routes see streamed request bodies (multipart forms, files) as a server would.
@Suite struct MockUploadTests {
    private let api = ServerConfig(host: "api.example.com")

    @Test func aRouteReadsAMultipartFormWithItsFile() async throws {
        let photo = try TemporaryFile(named: "sunset.jpg", contents: Data(repeating: 0x5A, count: 3000))
        let seen = Locked<(body: Data?, length: Int64?)>((nil, nil))
        let routes = MockRoutes([
            MockRoute(.post, "/photos") { request in
                seen.withLock { $0 = (request.body, request.bodyLength) }
                return .json(["saved": true])
            },
        ])
        var call = NetCall(server: api, endpoint: .post("/photos", body: .multipart([.field("caption", "Bay"), .file(photo.url, name: "photo")])))
        call.firingFunction = .mock(routes)
        _ = try await call.response()

        let (body, length) = seen.withLock { $0 }
        let text = String(decoding: try #require(body), as: UTF8.self)
        #expect(text.contains("name=\"caption\"\r\n\r\nBay\r\n"))
        #expect(text.contains("filename=\"sunset.jpg\""))
        #expect(body.map { $0.count > 3000 } == true)
        #expect(length == body.map { Int64($0.count) }, "the length is the stream's, known without reading it")
    }

    @Test func aJSONFileBodyMatchesAJSONMatcher() async throws {
        let file = try TemporaryFile(named: "user.json", contents: Data(#"{"user": "ada", "admin": false}"#.utf8))
        let routes = MockRoutes([
            MockRoute.post("/users", .json(["id": 1])).matching(.jsonBody(containing: ["user": "ada"])),
        ])
        var call = NetCall(server: api, endpoint: .post("/users", body: .file(file.url)))
        call.firingFunction = .mock(routes)
        #expect(try await call.response().head?.statusCode == 200)
    }
}
