import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

/// Outcomes Linux `URLSession` loses unless Salvo repairs them (LinuxTransfer), against the
/// loopback server's `/challenge/…`, `/redirect` and `/redirects/…` routes.
///
/// Every call runs under a bound: before the repair a Basic challenge never completed.
@Suite struct LinuxTransferIntegrationTests {
    struct Challenge: Sendable, CustomTestStringConvertible {
        let route: String
        let status: Int
        let header: String
        let scheme: String
        /// Corelibs never hands a Basic-challenged response's body to a completion handler.
        let hasBody: Bool
        var testDescription: String { route }
    }

    static let challenges = [
        Challenge(route: "basic", status: 401, header: "WWW-Authenticate", scheme: "Basic", hasBody: false),
        Challenge(route: "digest", status: 401, header: "WWW-Authenticate", scheme: "Digest", hasBody: true),
        Challenge(route: "proxy", status: 407, header: "Proxy-Authenticate", scheme: "Basic", hasBody: true),
    ]

    @Test(arguments: challenges)
    func aChallengeIsDeliveredPromptlyAsItsServerStatusWithHeaders(_ challenge: Challenge) async throws {
        let call = NetCall(server: try await .loopback(), endpoint: .get("/challenge/\(challenge.route)").timeout(30))
        let failure = try await withTimeout(5) { () async -> NetworkError? in
            await thrownError(by: call)
        }
        guard case .serverStatus(let status) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(status.statusCode == challenge.status)
        #expect(status.headers[challenge.header]?.hasPrefix(challenge.scheme) == true)
        if challenge.hasBody {
            #expect(String(decoding: status.body ?? Data(), as: UTF8.self).contains("unauthorized"))
        }
    }

    @Test func aRefreshAfterABasicChallengeSendsTheNewTokenAndSucceeds() async throws {
        let token = Locked("expired")
        var server = try await ServerConfig.loopback()
        server.actions = [
            RefreshTokenAction { token.withLock { $0 = "fresh" } },
            AuthTokenAction(for: server) { token.withLock { $0 } },
        ]
        let call = NetCall(server: server, endpoint: Endpoint.get("/challenge/basic", query: ["accept": "fresh"]).requiringAuthentication())
        let response = try await withTimeout(10) { try await call.response() }
        #expect(response.statusCode == 200)
    }

    @Test(arguments: [307, 308], ["POST", "PUT", "PATCH", "DELETE"])
    func aRedirectThatKeepsTheMethodKeepsTheBody(code: Int, method: String) async throws {
        let echo = try await redirected(code: code, method: method)
        #expect(echo.method == method)
        #expect(echo.path == "/echo/landed")
        #expect(String(decoding: echo.body, as: UTF8.self) == "payload")
        #expect(echo.header("Content-Type")?.hasPrefix("text/plain") == true)
    }

    @Test(arguments: [301, 302], ["PUT", "PATCH", "DELETE"])
    func aMovedRequestOtherThanPOSTKeepsMethodAndBody(code: Int, method: String) async throws {
        let echo = try await redirected(code: code, method: method)
        #expect(echo.method == method)
        #expect(String(decoding: echo.body, as: UTF8.self) == "payload")
    }

    /// As on Apple platforms: 301/302 turn a POST, 303 turns every method, into a GET without a body.
    @Test(arguments: [(301, "POST"), (302, "POST"), (303, "POST"), (303, "PUT"), (303, "DELETE")])
    func aRedirectThatSwitchesToGETDropsTheBody(code: Int, method: String) async throws {
        let echo = try await redirected(code: code, method: method)
        #expect(echo.method == "GET")
        #expect(echo.body.isEmpty)
    }

    @Test(arguments: [302, 307])
    func credentialsDoNotFollowABodyRedirectToASecondHost(code: Int) async throws {
        let port = try await LoopbackServer.port()
        let echo = try await redirected(code: code, method: "PUT", to: "http://localhost:\(port)/echo/landed", credentials: true)
        #expect(echo.header("Authorization") == nil)
        #expect(echo.header("Cookie") == nil)
        #expect(String(decoding: echo.body, as: UTF8.self) == "payload")
    }

    @Test(arguments: [(302, "GET"), (307, "GET"), (307, "POST"), (308, "PUT")])
    func aRedirectLoopEndsWithTooManyRedirects(code: Int, method: String) async throws {
        let body: RequestBody = method == "GET" ? .none : .text("payload")
        let endpoint = Endpoint(method: HTTPMethod(method), path: "/redirects/loop", query: [URLQueryItem(name: "code", value: "\(code)")], body: body)
        let call = NetCall(server: try await .loopback(), endpoint: endpoint)
        let failure = try await withTimeout(20) { () async -> NetworkError? in
            await thrownError(by: call)
        }
        guard case .transport(let error) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(error.code == URLError.Code.httpTooManyRedirects)
    }

    private func thrownError(by call: NetCall) async -> NetworkError? {
        do { _ = try await call.response(); return nil } catch { return error }
    }

    private func redirected(code: Int, method: String, to target: String = "/echo/landed", credentials: Bool = false) async throws -> Echo {
        var endpoint = Endpoint(
            method: HTTPMethod(method),
            path: "/redirect",
            query: [URLQueryItem(name: "to", value: target), URLQueryItem(name: "code", value: "\(code)")],
            body: .text("payload")
        )
        if credentials {
            endpoint = endpoint.header("Authorization", "Bearer secret").header("Cookie", "session=1")
        }
        let call = NetCall(server: try await .loopback(), endpoint: endpoint)
        return try await withTimeout(10) { try await call.value(as: Echo.self) }
    }
}
