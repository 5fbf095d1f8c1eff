import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// The code in the sequences, matchers, verification, cassette, HAR and fixture sections of
// Docs/Mocking.md and Docs/Testing.md, kept here so it cannot rot.

enum RecordReplaySamples {
    struct Cart: Codable, Sendable, Equatable {
        var items: [String]
        static let empty = Cart(items: [])
        static let withTea = Cart(items: ["tea"])
    }

    struct ShopAPI: Sendable {
        var server = ServerConfig(host: "shop.example.com", basePath: "v1")
        var firing: FiringFunction = .production

        func cart() -> NetCall { NetCall(server: server, endpoint: .get("/cart"), callbackQueue: .immediate, firingFunction: firing) }
        func add(_ sku: String) -> NetCall {
            NetCall(server: server, endpoint: .post("/cart/items", body: .json(["sku": sku])), callbackQueue: .immediate, firingFunction: firing)
        }
        func login(user: String) -> NetCall {
            NetCall(server: server, endpoint: .post("/login", body: .json(["user": user, "password": "pw"])), callbackQueue: .immediate, firingFunction: firing)
        }
    }

    /// A cart that is empty until an item is posted (Docs/Mocking.md, "Answers that change").
    static func shopRoutes() -> MockRoutes {
        let cart = MockScenario("cart", startingAt: "empty")
        return MockRoutes(under: "/v1", [
            .get("/cart", .json(Cart.empty)).when(cart, is: "empty"),
            .get("/cart", .json(Cart.withTea)).when(cart, is: "filled"),
            .post("/cart/items", .status(201)).moving(cart, to: "filled"),
            .post("/login", .json(["token": "t-ada"])).matching(.jsonBody(containing: ["user": "ada"])),
            .post("/login", .status(401)),
            .get("/health", .failing(2, with: .status(503), then: .text("ok"))),
            .get("/news", .sequence([.json(["first"]), .json(["second"])], then: .status(304))),
            .get("/old-cart", .redirect(to: "/v1/cart", status: 301)),
        ])
    }
}

@Suite struct RecordReplaySamplesTests {
    typealias Cart = RecordReplaySamples.Cart

    @Test func answersThatChange() async throws {
        let api = RecordReplaySamples.ShopAPI(firing: .mock(RecordReplaySamples.shopRoutes()))
        #expect(try await api.cart().value(as: Cart.self) == .empty)
        _ = try await api.add("tea").response()
        #expect(try await api.cart().value(as: Cart.self) == .withTea)

        var old = api.cart()
        old.endpoint = .get("/old-cart")
        let moved = try await old.response()
        #expect(moved.url?.path == "/v1/cart")                        // the redirect was followed
        #expect(try await RecordReplaySamples.ShopAPI(firing: .mock(RecordReplaySamples.shopRoutes())).cart().value(as: Cart.self) == .empty)
    }

    @Test func matchersAndTheClosestRoutes() async throws {
        let api = RecordReplaySamples.ShopAPI(firing: .mock(RecordReplaySamples.shopRoutes()))
        #expect(try await api.login(user: "ada").value(as: [String: String].self) == ["token": "t-ada"])
        await #expect(throws: NetworkError.self) { try await api.login(user: "bob").response() }   // the 401 route
    }

    @Test func verifyWhatWasHit() async throws {
        let log = MockRouteLog()
        let api = RecordReplaySamples.ShopAPI(firing: .mock(RecordReplaySamples.shopRoutes().logging(into: log)))

        _ = try await api.add("tea").response()
        _ = try await api.cart().response()

        #expect(log.hits(of: "POST /cart/items").count == 1)
        #expect(log.hits(of: "GET /cart [scenario cart is \"filled\"]").count == 1)
        #expect(log.unusedRoutes.contains("GET /health"))
        log.verify()                                   // fails the test for unexpected requests
        // log.verify(strict: true)                    // …and for routes never used
        // log.verify(strict: true) { XCTFail($0) }    // the same in XCTest
    }

    @Test func cassettesInCode() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-sample-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        // In an app the cassette sends through URLSession.shared; a mock plays the server here.
        let server = MockSession { _ in .json(Cart.withTea) }

        let cassette = Cassette(at: fixtures, mode: .recordMissing, through: server)
        let api = RecordReplaySamples.ShopAPI(firing: cassette.firingFunction)
        let live = try await api.cart().value(as: Cart.self)

        let offline = RecordReplaySamples.ShopAPI(firing: .cassette(at: fixtures, mode: .replay))
        #expect(try await offline.cart().value(as: Cart.self) == live)
        #expect(cassette.fileNames == [try api.cart().fixtureFileName()])
    }

    @Test(.cassette("cart", mode: .replay, in: FileManager.default.temporaryDirectory.appendingPathComponent("salvo-sample-cassettes")))
    func oneCassettePerTest() async throws {
        let cassette = try #require(Cassette.current)
        let api = RecordReplaySamples.ShopAPI(firing: cassette.firingFunction)
        #expect(cassette.folder.lastPathComponent == "cart")
        await #expect(throws: NetworkError.self) { try await api.cart().response() }   // nothing recorded yet
    }

    @Test func harImportAndExport() throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-sample-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        let capture = Data(#"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://shop.example.com/v1/cart"}, "response": {"status": 200, "content": {"text": "{\"items\":[]}"}}}]}}"#.utf8)

        try HTTPArchive.importFixtures(from: capture, into: fixtures)             // or from: harFileURL
        let har = try HTTPArchive.exportData(fixturesIn: fixtures)                 // or export(fixturesIn:to:)

        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.path).count == 1)
        #expect(String(decoding: har, as: UTF8.self).contains("\"version\" : \"1.2\""))
    }
}
