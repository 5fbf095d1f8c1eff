import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Status codes from httpbin's `/status/n`, its authentication challenges, and an empty `204`.
@Suite(.requiresHTTPBin) struct StatusInteropTests {
    struct Challenge: Sendable, CustomTestStringConvertible {
        let path: String
        let status: Int
        let header: String?
        let value: String
        var testDescription: String { path }
    }

    @Test(arguments: TransportUnderTest.all, [200, 201, 202, 203, 204, 205, 206])
    func aSuccessfulStatusIsAResponse(over transport: TransportUnderTest, _ status: Int) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/status/\(status)")).response() }
        #expect(response.head?.statusCode == status)
        #expect(response.head?.url.path == "/status/\(status)")
    }

    @Test(arguments: TransportUnderTest.all, [400, 403, 404, 405, 409, 410, 418, 422, 429, 500, 501, 502, 503, 504])
    func anErrorStatusIsAServerStatusFailureWithItsURL(over transport: TransportUnderTest, _ status: Int) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.delete("/status/\(status)"))
        let failure = await networkError { try await call.response() }
        guard case .serverStatus(let server) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(server.statusCode == status)
        #expect(server.url?.path == "/status/\(status)")
    }

    @Test(arguments: TransportUnderTest.all)
    func anErrorStatusCarriesItsBodyAndHeaders(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/status/418"))
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == 418)
        let body = String(decoding: failure?.responseBody ?? Data(), as: UTF8.self)
        #expect(body.contains("-=[ teapot ]=-"))
        guard case .serverStatus(let server) = failure else {
            Issue.record("expected .serverStatus, got \(String(describing: failure))")
            return
        }
        #expect(server.headers["X-More-Info"] == "http://tools.ietf.org/html/rfc2324")
    }

    static let challenges = [
        Challenge(path: "/status/401", status: 401, header: "WWW-Authenticate", value: "Basic realm=\"Fake Realm\""),
        Challenge(path: "/basic-auth/user/passwd", status: 401, header: "WWW-Authenticate", value: "Basic realm=\"Fake Realm\""),
        Challenge(path: "/bearer", status: 401, header: "WWW-Authenticate", value: "Bearer"),
        Challenge(path: "/digest-auth/auth/user/passwd", status: 401, header: "WWW-Authenticate", value: "Digest "),
        // httpbin sets Proxy-Authenticate, but gunicorn drops it as a hop-by-hop header: a bare 407.
        Challenge(path: "/status/407", status: 407, header: nil, value: ""),
    ]

    /// Before Salvo answered challenges on Linux, a Basic-challenged 401 never completed.
    @Test(arguments: TransportUnderTest.all, challenges)
    func aChallengeWithoutCredentialsFailsPromptlyWithTheChallenge(over transport: TransportUnderTest, _ challenge: Challenge) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let started = Date()
        let call = httpbin.call(Endpoint.get(EndpointPath(challenge.path)).timeout(30))
        let failure = await networkError { try await call.response() }
        guard case .serverStatus(let server) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(server.statusCode == challenge.status)
        if let header = challenge.header {
            #expect(server.headers[header]?.hasPrefix(challenge.value) == true, "\(server.headers)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// httpbin's `/status/204` sends `Content-Type: text/html` and no body.
    @Test(arguments: TransportUnderTest.all)
    func anEmpty204PassesJSONValidationAndDecodesAsNothing(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let validated = [ValidationAction.json]
        let response = try await withTimeout { try await httpbin.call(.delete("/status/204"), actions: validated).response() }
        #expect(response.head?.statusCode == 204)
        #expect(response.data.isEmpty)
        let optional = try await withTimeout { try await httpbin.call(.get("/status/204"), actions: validated).value(as: HTTPBinEcho?.self) }
        #expect(optional == nil)
        let typed = TypedCall<Void, String>(httpbin.call(.delete("/status/204"), actions: validated))
        try await withTimeout { try await typed.value() }
        let nonOptional = httpbin.call(.get("/status/204"))
        let failure = await networkError { try await nonOptional.value(as: HTTPBinEcho.self) }
        guard case .decoding = failure else { Issue.record("got \(String(describing: failure))"); return }
    }

    @Test(arguments: TransportUnderTest.all, [Endpoint.get("/json"), .post("/anything", body: .form(["a": "1"])), .get("/response-headers", query: ["X-A": "1"])])
    func jsonValidationOnTheServerAcceptsJSONBodies(over transport: TransportUnderTest, _ endpoint: Endpoint) async throws {
        let httpbin = try await HTTPBin(over: transport)
        var server = httpbin.server
        server.actions = [ValidationAction.json]
        let call = NetCall(server: server, endpoint: endpoint, firingFunction: httpbin.firingFunction)
        let response = try await withTimeout { try await call.response() }
        #expect(response.head?.statusCode == 200)
        #expect(response.head?.headers["Content-Type"]?.contains("json") == true)
        #expect(!response.data.isEmpty)
    }

    @Test(arguments: TransportUnderTest.all(withPairs: [("/html", "text/html"), ("/xml", "application/xml"), ("/robots.txt", "text/plain"), ("/image/png", "image/png")]))
    func jsonValidationRefusesOtherBodiesNamingTheirType(over transport: TransportUnderTest, path: String, contentType: String) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get(EndpointPath(path)), actions: [ValidationAction.json])
        let failure = await networkError { try await call.response() }
        guard case .unacceptableResponse(let problem) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(problem.statusCode == 200)
        #expect(problem.headers["Content-Type"]?.hasPrefix(contentType) == true)
        #expect(problem.reason.contains(contentType), "\(problem.reason)")
    }

    /// `/response-headers?Content-Type=…` adds a second `Content-Type` after httpbin's own
    /// `application/json`; the two arrive joined, which is no media type.
    @Test(arguments: TransportUnderTest.all)
    func aDoubledContentTypeIsRefusedQuotingWhatArrived(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/response-headers", query: ["Content-Type": "application/problem+json"]), actions: [ValidationAction.json])
        let failure = await networkError { try await call.response() }
        guard case .unacceptableResponse(let problem)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(problem.reason.contains("\"application/json, application/problem+json\" is not a media type"), "\(problem.reason)")
    }

    @Test(arguments: TransportUnderTest.all)
    func aStatusValidationRefusesASuccessOutsideItsList(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/status/202"), actions: [ValidationAction(statusCodes: [200, 201])])
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == 202)
    }
}
