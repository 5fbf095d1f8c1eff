import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Item 2 of issue 15: routes that match on body, headers and query, and unmatched requests
/// that say which routes came closest and why.
@Suite struct MockMatcherTests {
    struct Login: Codable, Sendable {
        var user: String
        var remember: Bool
        var device: Device?
    }

    struct Device: Codable, Sendable {
        var os: String
    }

    static func request(_ method: String = "POST", _ url: String = "https://h.example/login", body: String? = nil, headers: [String: String] = [:]) -> MockRequest {
        var request = URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return MockRequest(request)
    }

    @Test(arguments: [
        (#"{"remember":true,"user":"ada"}"#, true),
        (#"{ "user" : "ada", "remember" : true }"#, true),
        (#"{"user":"ada","remember":true,"extra":1}"#, false),
        (#"{"user":"bob","remember":true}"#, false),
        ("not json", false),
    ])
    func jsonBodyEqualIgnoresKeyOrderAndSpacing(body: String, matches: Bool) {
        let matcher = MockMatcher.jsonBody(Login(user: "ada", remember: true))
        #expect((matcher.mismatch(for: Self.request(body: body)) == nil) == matches)
    }

    @Test func jsonBodyContainingAllowsExtraKeysAtAnyDepthAndSaysWhereItDiffers() {
        let matcher = MockMatcher.jsonBody(containing: ["device": ["os": "linux"]])
        #expect(matcher.mismatch(for: Self.request(body: #"{"user":"ada","device":{"os":"linux","v":2}}"#)) == nil)
        #expect(matcher.mismatch(for: Self.request(body: #"{"device":{"os":"ios"}}"#)) == #"$.device.os is "ios", not "linux""#)
        #expect(matcher.mismatch(for: Self.request(body: #"{"user":"ada"}"#)) == "$.device is absent")
        #expect(matcher.mismatch(for: Self.request(body: nil)) == "it has no body")
    }

    @Test func numbersCompareByValue() {
        #expect(MockMatcher.jsonBody(["n": 1.0]).mismatch(for: Self.request(body: #"{"n":1}"#)) == nil)
        #expect(MockMatcher.jsonBody(["flag": true]).mismatch(for: Self.request(body: #"{"flag":1}"#)) != nil)
    }

    @Test func formBodyMatchesDecodedFields() {
        let matcher = MockMatcher.formBody(["q": "tea cups", "page": "*"])
        #expect(matcher.mismatch(for: Self.request(body: "q=tea+cups&page=2&x=%ZZ")) == nil)
        #expect(matcher.mismatch(for: Self.request(body: "q=coffee&page=2")) == "its form has q=coffee")
        #expect(matcher.mismatch(for: Self.request(body: "q=tea%20cups")) == "its form has no page")
    }

    @Test func headerPresentOrEqualAndQueryContaining() {
        let request = Self.request("GET", "https://h.example/s?q=tea&page=2", headers: ["X-Tenant": "a"])
        #expect(MockMatcher.header("x-tenant").mismatch(for: request) == nil)
        #expect(MockMatcher.header("X-Tenant", "b").mismatch(for: request) == #"its X-Tenant is "a""#)
        #expect(MockMatcher.header("Authorization").mismatch(for: request) == "it has no Authorization header")
        #expect(MockMatcher.query(containing: ["q": "tea", "page": "*"]).mismatch(for: request) == nil)
        #expect(MockMatcher.query(containing: ["q": "coffee"]).mismatch(for: request) == "its query has q=tea")
    }

    @Test func matchersCombineAndTheRouteWithMoreConditionsWins() async throws {
        let routes = MockRoutes([
            .post("/login", .text("any")),
            .post("/login", .text("ada")).matching(.jsonBody(containing: ["user": "ada"])),
            .post("/login", .text("ada on ios")).matching(.jsonBody(containing: ["user": "ada"]), .header("X-Platform", "ios")),
        ])
        func answer(_ body: String, platform: String?) async throws -> String {
            let endpoint = Endpoint.post("/login", body: .data(Data(body.utf8), contentType: "application/json"),
                                         headers: platform.map { ["X-Platform": $0] } ?? [:])
            let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: endpoint, callbackQueue: .immediate, firingFunction: .mock(routes))
            return String(decoding: try await call.response().data, as: UTF8.self)
        }
        #expect(try await answer(#"{"user":"bob"}"#, platform: "ios") == "any")
        #expect(try await answer(#"{"user":"ada"}"#, platform: nil) == "ada")
        #expect(try await answer(#"{"user":"ada"}"#, platform: "ios") == "ada on ios")
    }

    @Test func anUnmatchedRequestNamesTheClosestRoutesAndWhyEachMissed() {
        let routes = MockRoutes(under: "/v1", [
            .get("/users", .status(200)),
            .post("/login", .status(200)).matching(.jsonBody(containing: ["user": "ada"])),
            .get("/login", .status(200)),
            .delete("/orders/:id", .status(204)),
            .get("/search", query: ["q": "*"], .status(200)),
        ])
        var login = URLRequest(url: URL(string: "https://h.example/v1/login") ?? URL(fileURLWithPath: "/"))
        login.httpMethod = "POST"
        login.httpBody = Data(#"{"user":"bob"}"#.utf8)
        guard case .failure(let noRoute) = routes.match(login) else {
            Issue.record("matched")
            return
        }
        #expect(noRoute.message.hasPrefix("No mock route matches POST https://h.example/v1/login. Closest routes under \"/v1\": "))
        #expect(noRoute.message.contains(#"POST /login [JSON body containing {"user":"ada"}] — JSON body containing {"user":"ada"}: $.user is "bob", not "ada""#))
        #expect(noRoute.message.contains("GET /login — it answers GET, not POST"))
        #expect(noRoute.message.hasSuffix("(of 5). Add a route for this request or change one of these."))
        #expect(!noRoute.message.contains("DELETE"))

        guard case .failure(let search) = routes.match(URLRequest(url: URL(string: "https://h.example/v1/search?page=1") ?? URL(fileURLWithPath: "/"))) else {
            Issue.record("GET /v1/search?page=1 matched a route whose query needs q")
            return
        }
        #expect(search.message.contains("GET /search?q=* — its query has no q"))
    }

    @Test func aMatcherWithAnUnencodableValueNeverMatchesAndSaysWhy() {
        struct Bad: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws { throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no")) }
        }
        #expect(MockMatcher.jsonBody(Bad()).mismatch(for: Self.request(body: "{}"))?.contains("cannot be encoded") == true)
    }

    @Test func aThousandRouteTableFindsTheRightRoute() {
        var routes = MockRoutes(under: "/v1")
        for index in 0..<1_000 { routes.add(.get("/resource\(index)/:id", .status(200))) }
        routes.add(.get("/**", .status(404)))
        var request = URLRequest(url: URL(string: "https://h.example/v1/resource517/42") ?? URL(fileURLWithPath: "/"))
        request.httpMethod = "GET"
        guard case .success(let (route, matched)) = routes.match(request) else {
            Issue.record("no match")
            return
        }
        #expect(route.pattern == "/resource517/:id")
        #expect(matched.parameters == ["id": "42"])
    }
}
