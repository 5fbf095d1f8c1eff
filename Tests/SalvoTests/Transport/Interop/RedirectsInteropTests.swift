import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Every redirect code with every method and a body (`/redirect-to`), redirect chains and loops
/// (`/redirect/n`, `/absolute-redirect/n`, `/relative-redirect/n`), and credentials on redirects
/// that leave the origin.
@Suite(.requiresHTTPBin) struct RedirectsInteropTests {
    struct Payload: Codable, Sendable, Equatable {
        let note: String
    }

    /// As browsers and Apple platforms do: 303 turns every method into a GET, 301 and 302 turn a
    /// POST into a GET, and a GET drops the body; every other redirect keeps method and body.
    private static func expectedMethod(after code: Int, for method: HTTPMethod) -> HTTPMethod {
        code == 303 || ((code == 301 || code == 302) && method == .post) ? .get : method
    }

    @Test(arguments: TransportUnderTest.all(with: [301, 302, 303, 307, 308], [HTTPMethod.get, .post, .put, .patch, .delete]))
    func aRedirectKeepsOrDropsMethodAndBodyByItsCode(over transport: TransportUnderTest, code: Int, method: HTTPMethod) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let payload = Payload(note: "sent with \(method) to a \(code)")
        let endpoint = Endpoint(
            method: method,
            path: "/redirect-to",
            query: [URLQueryItem(name: "url", value: "/anything/landed?from=\(code)"), URLQueryItem(name: "status_code", value: "\(code)")],
            headers: ["X-Trace": "kept"],
            body: method == .get ? .none : .json(payload)
        )
        let response = try await withTimeout { try await httpbin.call(endpoint).response() }
        let echo = try JSONDecoder().decode(HTTPBinEcho.self, from: response.data)
        let expected = Self.expectedMethod(after: code, for: method)
        #expect(response.head?.statusCode == 200)
        #expect(response.head?.url.path == "/anything/landed")
        #expect(echo.method == expected.rawValue)
        #expect(echo.args == ["from": .one("\(code)")])
        #expect(echo.header("X-Trace") == "kept")
        if expected == .get {
            #expect(echo.data == "")
            #expect(echo.json == nil)
        } else {
            #expect(try JSONDecoder().decode(Payload.self, from: echo.body ?? Data()) == payload)
            #expect(echo.header("Content-Type") == "application/json")
        }
    }

    @Test(arguments: TransportUnderTest.all, ["/redirect/5", "/absolute-redirect/5", "/relative-redirect/5", "/redirect/19"])
    func aChainOfRedirectsEndsAtItsTargetWithTheFinalURL(over transport: TransportUnderTest, _ path: String) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get(EndpointPath(path))).response() }
        #expect(response.head?.statusCode == 200)
        #expect(response.head?.url.path == "/get")
        let echo = try JSONDecoder().decode(HTTPBinEcho.self, from: response.data)
        #expect(echo.url?.hasSuffix("/get") == true)
    }

    @Test(arguments: TransportUnderTest.all, ["/redirect/25", "/absolute-redirect/25", "/relative-redirect/25"])
    func tooManyRedirectsEndTheCallWithATransportError(over transport: TransportUnderTest, _ path: String) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get(EndpointPath(path)))
        let failure = await networkError(within: 20) { try await call.response() }
        guard case .transport(let error)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(error.code == .httpTooManyRedirects)
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodySurvivesTwoRedirectsThatKeepTheMethod(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let second = "/redirect-to?url=/anything/twice&status_code=308"
        let endpoint = Endpoint.post("/redirect-to", query: ["url": second, "status_code": "307"], body: .json(Payload(note: "twice")))
        let response = try await withTimeout { try await httpbin.call(endpoint).response() }
        let echo = try JSONDecoder().decode(HTTPBinEcho.self, from: response.data)
        #expect(response.head?.url.path == "/anything/twice")
        #expect(echo.method == "POST")
        #expect(try JSONDecoder().decode(Payload.self, from: echo.body ?? Data()) == Payload(note: "twice"))
    }

    // MARK: - Credentials

    /// A second origin: httpbin on `localhost` instead of 127.0.0.1, or the loopback server (another port).
    enum Elsewhere: String, CaseIterable, Sendable {
        case httpbinOnLocalhost, loopbackOn127
    }

    private func landing(_ elsewhere: Elsewhere) async throws -> String {
        switch elsewhere {
        case .httpbinOnLocalhost: "http://localhost:\(try await HTTPBinServer.port())/anything/landed"
        case .loopbackOn127: "http://127.0.0.1:\(try await LoopbackServer.port())/echo/landed"
        }
    }

    /// The request headers the landing route saw, from either server's echo.
    private func headersSeen(in data: Data, at elsewhere: Elsewhere) throws -> (header: (String) -> String?, body: Data) {
        switch elsewhere {
        case .httpbinOnLocalhost:
            let echo = try JSONDecoder().decode(HTTPBinEcho.self, from: data)
            return (echo.header, echo.body ?? Data())
        case .loopbackOn127:
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            return (echo.header, echo.body)
        }
    }

    @Test(arguments: TransportUnderTest.all(with: [301, 302, 303, 307, 308], Elsewhere.allCases))
    func credentialsDoNotFollowARedirectToAnotherOrigin(over transport: TransportUnderTest, code: Int, elsewhere: Elsewhere) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let token = AuthTokenAction { "secret-token" }
        let apiKey = AuthTokenAction(headerName: "X-Api-Key", scheme: "") { "secret-key" }
        let endpoint = Endpoint.put(
            "/redirect-to",
            query: ["url": try await landing(elsewhere), "status_code": "\(code)"],
            body: .text("payload"),
            headers: ["Cookie": "session=secret-cookie", "X-Trace": "kept"]
        ).requiringAuthentication()
        let response = try await withTimeout { try await httpbin.call(endpoint, actions: [token, apiKey]).response() }
        let seen = try headersSeen(in: response.data, at: elsewhere)
        #expect(seen.header("Authorization") == nil)
        #expect(seen.header("X-Api-Key") == nil)
        #expect(seen.header("Cookie") == nil)
        #expect(seen.header("X-Trace") == "kept")
        #expect(String(decoding: seen.body, as: UTF8.self) == (code == 303 ? "" : "payload"))
    }

    @Test(arguments: TransportUnderTest.all, [302, 307])
    func credentialsFollowARedirectOnTheSameOrigin(over transport: TransportUnderTest, code: Int) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let endpoint = Endpoint.get("/redirect-to", query: ["url": "/anything/landed", "status_code": "\(code)"], headers: ["Cookie": "session=mine"])
            .requiringAuthentication()
        let echo = try await withTimeout {
            try await httpbin.call(endpoint, actions: [AuthTokenAction { "secret-token" }]).value(as: HTTPBinEcho.self)
        }
        #expect(echo.header("Authorization") == "Bearer secret-token")
        #expect(echo.header("Cookie") == "session=mine")
    }
}
