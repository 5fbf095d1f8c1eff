import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct MockRoutesTests {
    static func request(_ method: HTTPMethod, _ url: String) -> URLRequest {
        var request = URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method.rawValue
        return request
    }

    /// The pattern of the route that answers, or nil when none does.
    static func winner(_ routes: MockRoutes, _ method: HTTPMethod, _ url: String) -> String? {
        guard case .success(let (route, _)) = routes.match(request(method, url)) else { return nil }
        return route.pattern
    }

    static let table = MockRoutes(under: "/v1", [
        .get("/users", .status(200)),
        .get("/users/:id", .status(200)),
        .get("/users/me", .status(200)),
        .get("/users/*/avatar", .status(200)),
        .get("/files/**", .status(200)),
        .post("/users", .status(201)),
    ])

    @Test(arguments: [
        ("GET", "https://h.example/v1/users", "/users"),
        ("GET", "https://h.example/v1/users/", "/users"),
        ("GET", "https://h.example/v1/users/42", "/users/:id"),
        ("GET", "https://h.example/v1/users/me", "/users/me"),
        ("GET", "https://h.example/v1/users/42/avatar", "/users/*/avatar"),
        ("GET", "https://h.example/v1/files", "/files/**"),
        ("GET", "https://h.example/v1/files/a/b/c.txt", "/files/**"),
        ("POST", "https://h.example/v1/users", "/users"),
    ])
    func routesMatchMethodAndPath(method: String, url: String, expected: String) {
        #expect(Self.winner(Self.table, HTTPMethod(method), url) == expected)
    }

    @Test(arguments: [
        ("DELETE", "https://h.example/v1/users/42"),
        ("GET", "https://h.example/users/42"),
        ("GET", "https://h.example/v1/users/42/posts"),
        ("GET", "https://h.example/v2/users"),
    ])
    func nothingMatchesOtherMethodsOrPaths(method: String, url: String) {
        #expect(Self.winner(Self.table, HTTPMethod(method), url) == nil)
    }

    @Test func parametersAreCapturedPercentDecoded() throws {
        let routes = MockRoutes([.get("/users/:id/files/:name", .status(200))])
        guard case .success(let (_, request)) = routes.match(Self.request(.get, "https://h.example/users/42/files/a%2Fb%20c.txt")) else {
            Issue.record("no match")
            return
        }
        #expect(request.parameters == ["id": "42", "name": "a/b c.txt"])
    }

    @Test(arguments: [
        ("", [String]()),
        ("/", []),
        ("//a//b/", ["a", "b"]),
        ("/users/a%2Fb%20c", ["users", "a/b c"]),
        ("/bad/%ZZ/%", ["bad", "%ZZ", "%"]),
        ("/caf%C3%A9/ü", ["café", "ü"]),
    ])
    func pathsSplitIntoDecodedSegmentsInOnePass(path: String, segments: [String]) {
        #expect(MockPathSegment.decodedSegments(path) == segments)
    }

    @Test func queryConstraintsMustAllHoldAndTheMoreConstrainedRouteWins() {
        let routes = MockRoutes([
            .get("/list", .status(200)),
            .get("/list", query: ["page": "2"], .status(200)),
            .get("/list", query: ["page": "2", "sort": "*"], .status(200)),
        ])
        #expect(routes.match(Self.request(.get, "https://h.example/list?page=1")).route?.query == [:])
        #expect(routes.match(Self.request(.get, "https://h.example/list?page=2")).route?.query == ["page": "2"])
        #expect(routes.match(Self.request(.get, "https://h.example/list?sort=name&page=2")).route?.query.count == 2)
    }

    @Test func ambiguousRoutesResolveToTheMostSpecificThenTheLastAdded() {
        var routes = MockRoutes([
            .get("/a/:x", .text("param")),
            .get("/a/*", .text("wildcard")),
            .get("/**", .text("rest")),
        ])
        #expect(Self.winner(routes, .get, "https://h.example/a/1") == "/a/:x")
        routes.add(.get("/a/:y", .text("override")))
        #expect(Self.winner(routes, .get, "https://h.example/a/1") == "/a/:y")
        #expect(Self.winner(routes, .get, "https://h.example/b") == "/**")
    }

    @Test func routesAnswerWithTheirResponseThroughFiring() async throws {
        struct User: Codable, Equatable { let id: String }
        let routes = MockRoutes(under: "v1", [
            MockRoute(.get, "/users/:id") { request in .json(User(id: request.parameters["id"] ?? "")) },
        ])
        let call = NetCall(server: ServerConfig(host: "api.example.com", basePath: "v1"), endpoint: .get("/users/\("a b")"),
                           callbackQueue: .immediate, firingFunction: .mock(routes))
        #expect(try await call.value(as: User.self) == User(id: "a b"))
    }

    @Test func noMatchFailsLoudlyNamingMethodAndURL() async {
        let routes = MockRoutes([.get("/users", .status(200))])
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .delete("/users/9", query: ["force": "1"]),
                           callbackQueue: .immediate, firingFunction: .mock(routes))
        let events = await call.fireAndRecord()
        // Like an action refusing a request: the task started, no response handler runs for an invalid request.
        #expect(events == [.task, .error(.incompleteSetup(SetupProblem(.route, ""))), .errorData(nil)])
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        let message = error?.description ?? ""
        #expect(message.contains("DELETE https://api.example.com/users/9?force=1"))
        #expect(message.contains("GET /users"))
    }

    @Test func anEmptyTableNeverHangs() async {
        let call = NetCall(server: ServerConfig(host: "x.example"), endpoint: .get("/"), callbackQueue: .immediate, firingFunction: .mock(MockRoutes()))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains("routes: none") == true)
    }
}

private extension Result where Success == (MockRoute, MockRequest) {
    var route: MockRoute? {
        if case .success(let (route, _)) = self { return route }
        return nil
    }
}

/// `put`, `patch` and `delete` routes have the same two forms as `get` and `post`.
@Suite struct MockRouteFactoryTests {
    @Test func everyMethodRouteMayComputeItsAnswer() async throws {
        let routes = MockRoutes([
            MockRoute(.put, "/items/:id") { request in .text("put \(request.parameters["id"] ?? "")") },
            MockRoute(.patch, "/items/:id") { request in .text("patch \(request.parameters["id"] ?? "")") },
            MockRoute(.delete, "/items/:id") { request in .status(204, headers: ["X-Deleted": request.parameters["id"] ?? ""]) },
        ])
        let server = ServerConfig(host: "api.test")
        func fire(_ endpoint: Endpoint) async throws -> NetworkResponse {
            try await NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .mock(routes)).response()
        }
        #expect(String(decoding: try await fire(.put("/items/7")).data, as: UTF8.self) == "put 7")
        #expect(String(decoding: try await fire(.patch("/items/8")).data, as: UTF8.self) == "patch 8")
        #expect(try await fire(.delete("/items/9")).headers["X-Deleted"] == "9")
    }
}
