import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Typed calls firing real requests at the loopback server.
@Suite struct TypedCallIntegrationTests {
    /// The `/status/N` route's body.
    struct StatusProblem: Decodable, Sendable {
        let status: Int
        let message: String
    }

    /// A page of the `/list/<key>/pages` route.
    struct ListPage: Decodable, Sendable {
        let items: [ListItem]
        let totalPages: Int

        enum CodingKeys: String, CodingKey {
            case items
            case totalPages = "total_pages"
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func valueDecodesTheBodyTheServerSent(over transport: TransportUnderTest) async throws {
        let call = TypedCall<Echo, StatusProblem>(NetCall(server: try await .loopback(), endpoint: .post("/echo/typed", query: ["q": "1"], body: .json(["a": "b"])), firingFunction: transport.firing))
        let echo = try await withTimeout { try await call.value() }
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo/typed")
        #expect(echo.query == "q=1")
        #expect(String(decoding: echo.body, as: UTF8.self) == #"{"a":"b"}"#)
    }

    @Test(arguments: TransportUnderTest.all)
    func aServerErrorArrivesWithItsBodyTyped(over transport: TransportUnderTest) async throws {
        let call = TypedCall<Echo, StatusProblem>(NetCall(server: try await .loopback(), endpoint: .get("/status/422"), firingFunction: transport.firing))
        do {
            _ = try await withTimeout { try await call.value() }
            Issue.record("expected the 422")
        } catch let error as APIError<StatusProblem> {
            #expect(error.error.statusCode == 422)
            #expect(error.body?.status == 422)
            #expect(error.body?.message.isEmpty == false)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theResponseCarriesTheServersStatusHeadersAndFinalURL(over transport: TransportUnderTest) async throws {
        let server = try await ServerConfig.loopback()
        let call = TypedCall<[String: String], Never>(NetCall(server: server, endpoint: .get("/headers", query: ["X-RateLimit-Remaining": "41", "ETag": "\"abc\""]), firingFunction: transport.firing))
        let response = try await withTimeout { try await call.response() }
        #expect(response.statusCode == 200)
        #expect(response.headers["x-ratelimit-remaining"] == "41")
        #expect(response.headers["ETag"] == "\"abc\"")
        #expect(response.url?.path == "/headers")
        #expect(response.value.isEmpty)
    }

    @Test(arguments: TransportUnderTest.all)
    func theCallbackAPIDeliversTheTypedResponseOnce(over transport: TransportUnderTest) async throws {
        let call = TypedCall<[String: String], Never>(NetCall(server: try await .loopback(), endpoint: .get("/headers", query: ["X-Page": "3"]), firingFunction: transport.firing))
        let received = Locked<[String]>([])
        let done = Signal()
        call.fire(on: .immediate) { result in
            received.withLock { $0.append((try? result.get().headers["X-Page"]) ?? "failure") }
            done.fire()
        }
        try await done.wait()
        #expect(received.withLock { $0 } == ["3"])
    }

    @Test(arguments: TransportUnderTest.all)
    func aPagerWalksAListThroughATypedCall(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let call = TypedCall<ListPage, StatusProblem>(NetCall(server: try await .loopback(), endpoint: .get("/list/\(key)/pages", query: ["total": "25"]), firingFunction: transport.firing))
        let pager = Pager(call: call, strategy: .pageNumber(pageSize: 10), id: \ListItem.id) { body in
            Page(items: body.items, totalPages: body.totalPages)
        }
        let items = try await withTimeout { try await pager.loadAll(maxPages: 5) }
        #expect(items.map(\.id) == Array(1...25))
        #expect(try await LoopbackServer.count(path: "/list/\(key)/pages") == 3)
    }
}
