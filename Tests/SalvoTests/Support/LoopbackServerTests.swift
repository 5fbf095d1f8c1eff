import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Checks the loopback server itself with plain URLSession, so a Salvo bug can't hide a server bug.
@Suite struct LoopbackServerTests {
    @Test func echoReturnsMethodRawPathRawQueryHeadersAndBody() async throws {
        let base = try await LoopbackServer.baseURL()
        let url = try #require(URL(string: "\(base.absoluteString)/echo/a%20b?x=1&y=%2F"))
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.setValue("Value-1", forHTTPHeaderField: "X-Salvo-Test")
        request.httpBody = Data("héllo".utf8)

        let (data, response) = try await session.data(for: request)

        #expect(statusCode(response) == 200)
        let echo = try JSONDecoder().decode(RawEcho.self, from: data)
        #expect(echo.method == "PUT")
        #expect(echo.path == "/echo/a%20b")
        #expect(echo.query == "x=1&y=%2F")
        #expect(echo.headers.contains { $0.first?.lowercased() == "x-salvo-test" && $0.last == "Value-1" })
        #expect(echo.body == "héllo")
        #expect(Data(base64Encoded: echo.bodyBase64) == Data("héllo".utf8))
    }

    @Test func emptyStatusHasNoBody() async throws {
        let base = try await LoopbackServer.baseURL()
        let url = try #require(URL(string: "\(base.absoluteString)/status/404?empty=1"))

        let (data, response) = try await session.data(from: url)

        #expect(statusCode(response) == 404)
        #expect(data.isEmpty)
    }

    @Test func countTracksRequestsPerRawPath() async throws {
        let base = try await LoopbackServer.baseURL()
        let path = "/echo/\(uniqueKey())"
        let url = try #require(URL(string: base.absoluteString + path))
        #expect(try await LoopbackServer.count(path: path) == 0)

        for _ in 1...3 {
            _ = try await session.data(from: url)
        }

        #expect(try await LoopbackServer.count(path: path) == 3)
    }

    @Test func refreshRotatesTheToken() async throws {
        let base = try await LoopbackServer.baseURL()
        let auth = "\(base.absoluteString)/auth/\(uniqueKey())"
        let protected = try #require(URL(string: "\(auth)/protected"))
        let refresh = try #require(URL(string: "\(auth)/refresh"))

        #expect(try await status(protected, bearer: nil) == 401)
        #expect(try await status(protected, bearer: "token-1") == 200)

        var request = URLRequest(url: refresh)
        request.httpMethod = "POST"
        let (data, response) = try await session.data(for: request)
        #expect(statusCode(response) == 200)
        #expect(try JSONDecoder().decode([String: String].self, from: data) == ["token": "token-2"])

        #expect(try await status(protected, bearer: "token-1") == 401)
        #expect(try await status(protected, bearer: "token-2") == 200)
    }

    @Test(arguments: ["/stream/chunked?chunks=4&size=1000", "/stream/bytes?n=1048837", "/stream/bytes?n=1048837&chunked=1"])
    func streamedBodiesFollowTheBytePattern(_ route: String) async throws {
        let base = try await LoopbackServer.baseURL()
        let url = try #require(URL(string: base.absoluteString + route))

        let (data, response) = try await session.data(from: url)

        #expect(statusCode(response) == 200)
        #expect(data.count == (route.contains("chunks") ? 4_000 : 1_048_837))
        #expect(data.elementsEqual((0..<data.count).lazy.map { UInt8($0 % 251) }))
    }

    @Test func chunkedBodiesCarryNoContentLength() async throws {
        let base = try await LoopbackServer.baseURL()
        let url = try #require(URL(string: "\(base.absoluteString)/stream/lines?count=3&format=ndjson"))

        let (data, response) = try await session.data(from: url)

        let http = try #require(response as? HTTPURLResponse)
        #expect(http.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(String(decoding: data, as: UTF8.self) == "{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n")
    }

    @Test func eventStreamDropsOnceResumesAfterLastEventIDThenEnds() async throws {
        let base = try await LoopbackServer.baseURL()
        let stream = "\(base.absoluteString)/stream/sse/\(uniqueKey())"
        let url = try #require(URL(string: "\(stream)?count=5&drop_after=2&end=204"))

        _ = try? await session.data(from: url)  // the first connection is cut after event 2
        var resume = URLRequest(url: url)
        resume.setValue("2", forHTTPHeaderField: "Last-Event-ID")
        let (data, response) = try await session.data(for: resume)
        let text = String(decoding: data, as: UTF8.self)
        #expect(statusCode(response) == 200)
        #expect(response.mimeType == "text/event-stream")
        #expect(!text.contains("id: 2\n") && text.hasPrefix("id: 3\nevent: tick\n") && text.hasSuffix("id: 5\ndata: {\"n\": 5}\n\n"))
        resume.setValue("5", forHTTPHeaderField: "Last-Event-ID")
        #expect(try await statusCode(session.data(for: resume).1) == 204)

        let statsURL = try #require(URL(string: "\(stream)/stats"))
        let stats = try JSONDecoder().decode(EventStreamStats.self, from: try await session.data(from: statsURL).0)
        #expect(stats == EventStreamStats(connections: 3, lastEventIDs: [nil, "2", "5"], completed: true))
    }

    private struct RawEcho: Decodable {
        let method: String
        let path: String
        let query: String
        let headers: [[String]]
        let body: String
        let bodyBase64: String

        enum CodingKeys: String, CodingKey {
            case method, path, query, headers, body
            case bodyBase64 = "body_base64"
        }
    }

    private var session: URLSession { URLSession.shared }

    private func status(_ url: URL, bearer token: String?) async throws -> Int? {
        var request = URLRequest(url: url)
        if let token {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        let (_, response) = try await session.data(for: request)
        return statusCode(response)
    }

    private func statusCode(_ response: URLResponse) -> Int? {
        (response as? HTTPURLResponse)?.statusCode
    }
}
