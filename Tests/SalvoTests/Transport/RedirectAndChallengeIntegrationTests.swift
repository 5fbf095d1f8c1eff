import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Challenges and redirects over each transport, against the loopback server's `/challenge/…`,
/// `/redirect` and `/redirects/…` routes: outcomes Linux `URLSession` loses unless Salvo repairs
/// them (LinuxTransfer), and that another transport must give the same way.
///
/// Every call runs under a bound: before the repair a Basic challenge never completed. Each
/// case is checked for a whole-body call (on Linux `URLSession`, a completion-handler task) and a
/// streamed one (a delegate task of the streaming companion session).
@Suite struct RedirectAndChallengeIntegrationTests {
    enum Reading: String, CaseIterable, Sendable {
        case whole, streamed
    }

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

    @Test(arguments: TransportUnderTest.all(with: challenges, Reading.allCases))
    func aChallengeIsDeliveredPromptlyAsItsServerStatusWithHeaders(over transport: TransportUnderTest, _ challenge: Challenge, reading: Reading) async throws {
        let call = NetCall(server: try await .loopback(), endpoint: .get("/challenge/\(challenge.route)").timeout(30), firingFunction: transport.firing)
        let failure = try await withTimeout(5) { () async -> NetworkError? in
            await thrownError(by: call, reading: reading)
        }
        guard case .serverStatus(let status) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(status.statusCode == challenge.status)
        #expect(status.headers[challenge.header]?.hasPrefix(challenge.scheme) == true)
        if challenge.hasBody {
            #expect(String(decoding: status.body ?? Data(), as: UTF8.self).contains("unauthorized"))
        }
    }

    @Test(arguments: TransportUnderTest.all, Reading.allCases)
    func aRefreshAfterABasicChallengeSendsTheNewTokenAndSucceeds(over transport: TransportUnderTest, reading: Reading) async throws {
        let token = Locked("expired")
        var server = try await ServerConfig.loopback()
        server.actions = [
            TokenRenewalAction { token.withLock { $0 = "fresh" } },
            AuthTokenAction(for: server) { token.withLock { $0 } },
        ]
        let call = NetCall(server: server, endpoint: Endpoint.get("/challenge/basic", query: ["accept": "fresh"]).requiringAuthentication(), firingFunction: transport.firing)
        let response = try await withTimeout(10) { try await read(call, reading) }
        #expect(response.statusCode == 200)
    }

    @Test(arguments: TransportUnderTest.all(with: [307, 308], Reading.allCases))
    func aRedirectThatKeepsTheMethodKeepsTheBody(over transport: TransportUnderTest, code: Int, reading: Reading) async throws {
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            let echo = try await redirected(code: code, method: method, reading: reading, over: transport)
            #expect(echo.method == method)
            #expect(echo.path == "/echo/landed")
            #expect(String(decoding: echo.body, as: UTF8.self) == "payload")
            #expect(echo.header("Content-Type")?.hasPrefix("text/plain") == true)
        }
    }

    @Test(arguments: TransportUnderTest.all(with: [301, 302], Reading.allCases))
    func aMovedRequestOtherThanPOSTKeepsMethodAndBody(over transport: TransportUnderTest, code: Int, reading: Reading) async throws {
        for method in ["PUT", "PATCH", "DELETE"] {
            let echo = try await redirected(code: code, method: method, reading: reading, over: transport)
            #expect(echo.method == method)
            #expect(String(decoding: echo.body, as: UTF8.self) == "payload")
        }
    }

    /// As on Apple platforms: 301/302 turn a POST, 303 turns every method, into a GET without a body.
    @Test(arguments: TransportUnderTest.all(withPairs: [(301, "POST"), (302, "POST"), (303, "POST"), (303, "PUT"), (303, "DELETE")]))
    func aRedirectThatSwitchesToGETDropsTheBody(over transport: TransportUnderTest, code: Int, method: String) async throws {
        for reading in Reading.allCases {
            let echo = try await redirected(code: code, method: method, reading: reading, over: transport)
            #expect(echo.method == "GET")
            #expect(echo.body.isEmpty)
        }
    }

    @Test(arguments: TransportUnderTest.all(with: [302, 307], Reading.allCases))
    func credentialsDoNotFollowABodyRedirectToASecondHost(over transport: TransportUnderTest, code: Int, reading: Reading) async throws {
        let port = try await LoopbackServer.port()
        let echo = try await redirected(code: code, method: "PUT", to: "http://localhost:\(port)/echo/landed", credentials: true, reading: reading, over: transport)
        #expect(echo.header("Authorization") == nil)
        #expect(echo.header("Cookie") == nil)
        #expect(String(decoding: echo.body, as: UTF8.self) == "payload")
    }

    @Test(arguments: TransportUnderTest.all(with: [(302, "GET"), (307, "GET"), (307, "POST"), (308, "PUT")], Reading.allCases))
    func aRedirectLoopEndsWithTooManyRedirects(over transport: TransportUnderTest, _ redirect: (code: Int, method: String), reading: Reading) async throws {
        let (code, method) = redirect
        let body: RequestBody = method == "GET" ? .none : .text("payload")
        let endpoint = Endpoint(method: HTTPMethod(method), path: "/redirects/loop", query: [URLQueryItem(name: "code", value: "\(code)")], body: body)
        let call = NetCall(server: try await .loopback(), endpoint: endpoint, firingFunction: transport.firing)
        let failure = try await withTimeout(20) { () async -> NetworkError? in
            await thrownError(by: call, reading: reading)
        }
        guard case .transport(let error) = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(error.code == URLError.Code.httpTooManyRedirects)
    }

    /// The call's response, read whole or streamed.
    private func read(_ call: NetCall, _ reading: Reading) async throws(NetworkError) -> NetworkResponse {
        switch reading {
        case .whole:
            return try await call.response()
        case .streamed:
            let bytes = call.bytes()
            var body = Data()
            for try await chunk in bytes { body.append(chunk) }
            return NetworkResponse(data: body, head: try await bytes.head)
        }
    }

    private func thrownError(by call: NetCall, reading: Reading) async -> NetworkError? {
        do { _ = try await read(call, reading); return nil } catch { return error }
    }

    private func redirected(code: Int, method: String, to target: String = "/echo/landed", credentials: Bool = false, reading: Reading, over transport: TransportUnderTest) async throws -> Echo {
        var endpoint = Endpoint(
            method: HTTPMethod(method),
            path: "/redirect",
            query: [URLQueryItem(name: "to", value: target), URLQueryItem(name: "code", value: "\(code)")],
            body: .text("payload")
        )
        if credentials {
            endpoint = endpoint.header("Authorization", "Bearer secret").header("Cookie", "session=1")
        }
        let call = NetCall(server: try await .loopback(), endpoint: endpoint, firingFunction: transport.firing)
        let response = try await withTimeout(10) { try await read(call, reading) }
        return try JSONDecoder().decode(Echo.self, from: response.data)
    }
}
