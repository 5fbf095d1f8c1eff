import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// The parts a mock route reads from a multipart call are the parts a real server parses from it:
/// one form fired at the loopback server's `/upload/multipart` echo and through mock firing.
@Suite struct MockMultipartIntegrationTests {
    /// A part as `upload_routes.py` reports it; names as sent, content in base64 up to 4 KiB.
    private struct ServerPart: Decodable, Sendable, Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let bodyBase64: String?
    }

    private struct Upload: Decodable, Sendable {
        let parts: [ServerPart]
    }

    @Test func aMockRouteSeesTheSamePartsAsTheLoopbackServer() async throws {
        let file = try TemporaryFile(named: "notes.txt", contents: Data("line one\r\n--not a boundary\r\n".utf8))
        let body = RequestBody.multipart([
            .field("title", "Ünïcode & spaces"),
            .data(Data([0xFF, 0x00, 0x0D, 0x0A]), name: "blob", fileName: "blob.bin", contentType: "application/octet-stream"),
            .file(file.url, name: "notes"),
            .field("empty", ""),
        ])
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase

        let server = try await ServerConfig.loopback()
        let real = try await NetCall(server: server, endpoint: .post("/upload/multipart/\(uniqueKey())", body: body))
            .value(as: Upload.self, decoder: decoder)

        let seen = Locked<[MockRequest.Part]?>(nil)
        var mocked = NetCall(server: server, endpoint: .post("/upload/multipart/mock", body: body), callbackQueue: .immediate)
        mocked.firingFunction = .mock(MockRoutes([
            MockRoute(.post, "/upload/multipart/:key") { request in
                seen.withLock { $0 = request.parts }
                return .status(200)
            }.matching(.multipartFields(["title": "Ünïcode & spaces", "empty": ""]), .multipartPart(named: "notes", fileName: "notes.txt")),
        ]))
        _ = try await mocked.response()
        let parts = try #require(seen.withLock { $0 })

        #expect(parts.map { ServerPart(name: $0.name, filename: $0.fileName, contentType: $0.contentType, bodyBase64: $0.body.base64EncodedString()) } == real.parts)
    }
}
