import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Item 7 of issue 15: a mock redirect is followed as production follows one, and HEAD answers
/// carry no body.
@Suite struct MockRedirectTests {
    static let server = ServerConfig(host: "api.example.com")

    /// What the final route saw, as text: `METHOD body auth=… cookie=…`.
    static let seen: @Sendable (MockRequest) -> MockResponse = { request in
        let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return .text("\(request.method) \(body) auth=\(request.header("Authorization") ?? "-") cookie=\(request.header("Cookie") ?? "-")")
    }

    static func routes(status: Int, to location: String = "/landed") -> MockRoutes {
        MockRoutes([
            .post("/start", .redirect(to: location, status: status)),
            .put("/start", .redirect(to: location, status: status)),
            .get("/start", .redirect(to: location, status: status)),
            MockRoute(.get, "/landed", answer: seen),
            MockRoute(.post, "/landed", answer: seen),
            MockRoute(.put, "/landed", answer: seen),
        ])
    }

    static func fire(_ endpoint: Endpoint, _ firing: FiringFunction, headers: HTTPHeaders = [:]) async throws -> NetworkResponse {
        let server = ServerConfig(host: "api.example.com", defaultHeaders: headers)
        return try await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: firing).response()
    }

    @Test(arguments: [
        (303, "POST", "GET  auth=Bearer t cookie=-"),
        (302, "POST", "GET  auth=Bearer t cookie=-"),
        (301, "POST", "GET  auth=Bearer t cookie=-"),
        (302, "PUT", "PUT {\"a\":1} auth=Bearer t cookie=-"),
        (307, "POST", "POST {\"a\":1} auth=Bearer t cookie=-"),
        (308, "POST", "POST {\"a\":1} auth=Bearer t cookie=-"),
    ])
    func methodAndBodyFollowTheStatusAsInProduction(status: Int, method: String, expected: String) async throws {
        let endpoint = method == "POST" ? Endpoint.post("/start", body: .json(["a": 1])) : .put("/start", body: .json(["a": 1]))
        let response = try await Self.fire(endpoint, .mock(Self.routes(status: status)), headers: ["Authorization": "Bearer t"])
        #expect(String(decoding: response.data, as: UTF8.self) == expected)
        #expect(response.url?.absoluteString == "https://api.example.com/landed")
    }

    @Test func aRedirectToAnotherOriginDropsCredentials() async throws {
        let routes = MockRoutes([
            .get("/start", .redirect(to: "https://elsewhere.example/landed")),
            MockRoute(.get, "/landed", answer: Self.seen),
        ])
        let response = try await Self.fire(.get("/start"), .mock(routes), headers: ["Authorization": "Bearer t", "Cookie": "s=1"])
        #expect(String(decoding: response.data, as: UTF8.self) == "GET  auth=- cookie=-")
        #expect(response.url?.host == "elsewhere.example")
    }

    @Test func aRedirectLoopEndsWithTooManyRedirects() async {
        let firing = FiringFunction.mock(MockRoutes([.get("/loop", .redirect(to: "/loop"))]))
        let error = await #expect(throws: NetworkError.self) { try await Self.fire(.get("/loop"), firing) }
        guard case .transport(let urlError)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .httpTooManyRedirects)
    }

    @Test func twentyRedirectsAreFollowed() async throws {
        let routes = MockRoutes([
            MockRoute(.get, "/hop/:n") { request in
                let hop = Int(request.parameters["n"] ?? "") ?? 0
                return hop < 20 ? .redirect(to: "/hop/\(hop + 1)") : .text("arrived")
            },
        ])
        #expect(String(decoding: try await Self.fire(.get("/hop/0"), .mock(routes)).data, as: UTF8.self) == "arrived")
    }

    @Test func aRedirectWithoutAUsableLocationIsDeliveredAsIs() async throws {
        let routes = MockRoutes([.get("/a", .status(302, headers: ["Location": "ftp://files.example/x"])), .get("/b", .status(302))])
        let events = await NetCall(server: Self.server, endpoint: .get("/a"), callbackQueue: .immediate, firingFunction: .mock(routes)).fireAndRecord()
        #expect(events.contains(.httpResponse(status: 302)))
    }

    @Test func headAnswersCarryNoBodyAndFallBackToTheGetRoute() async throws {
        let routes = MockRoutes([.get("/file", .text("contents", headers: ["X-Size": "8"]))])
        let response = try await Self.fire(Endpoint(method: .head, path: "/file"), .mock(routes))
        #expect(response.data.isEmpty)
        #expect(response.headers["X-Size"] == "8")
        #expect(try await Self.fire(Endpoint(method: .head, path: "/file"), .mock(.text("body"))).data.isEmpty)
    }
}

/// Mock redirects land where real ones do, with the same method and body: the loopback
/// server's `/redirect` against a mock table shaped like it.
@Suite struct MockRedirectParityIntegrationTests {
    @Test(arguments: [(303, "POST"), (302, "POST"), (307, "POST"), (308, "PUT")])
    func mockAndServerRedirectsArriveWithTheSameMethodAndBody(status: Int, method: String) async throws {
        let key = uniqueKey()
        let endpoint = Endpoint(method: HTTPMethod(method), path: "/redirect", query: [URLQueryItem(name: "to", value: "/echo/\(key)"), URLQueryItem(name: "code", value: "\(status)")],
                                body: .json(["tea": 2]))
        let server = try await ServerConfig.loopback()
        let live = try await withTimeout {
            try await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate).value(as: Echo.self)
        }
        let routes = MockRoutes([
            MockRoute(HTTPMethod(method), "/redirect") { request in .redirect(to: request.query["to"] ?? "/", status: Int(request.query["code"] ?? "") ?? 302) },
            MockRoute(.get, "/echo/**") { request in .json(["method": request.method.rawValue, "body": request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""]) },
            MockRoute(HTTPMethod(method), "/echo/**") { request in .json(["method": request.method.rawValue, "body": request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""]) },
        ])
        let mocked = try await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .mock(routes)).value(as: [String: String].self)
        #expect(mocked["method"] == live.method)
        #expect(mocked["body"] == String(decoding: live.body, as: UTF8.self))
    }
}
