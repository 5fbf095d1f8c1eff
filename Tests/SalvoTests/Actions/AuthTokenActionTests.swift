import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct AuthTokenActionTests {
    private let api = ServerConfig(scheme: "https", host: "api.test")

    private func sentAuthorization(
        _ endpoint: Endpoint,
        to server: ServerConfig? = nil,
        action: AuthTokenAction,
        header: String = "Authorization"
    ) async throws -> String? {
        let session = ScriptedSession(.status(200))
        let call = NetCall(server: server ?? api, endpoint: endpoint, actions: [action], callbackQueue: .immediate, firingFunction: session.firingFunction)
        _ = await result(of: call)
        let request = try #require(session.requests.first)
        return request.value(forHTTPHeaderField: header)
    }

    @Test func addsABearerTokenToEndpointsThatRequireAuthentication() async throws {
        let auth = AuthTokenAction(for: api) { "abc" }
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), action: auth) == "Bearer abc")
    }

    @Test func leavesEndpointsThatDoNotRequireAuthenticationAlone() async throws {
        let auth = AuthTokenAction(for: api) { "abc" }
        #expect(try await sentAuthorization(.get("/public"), action: auth) == nil)
    }

    @Test(arguments: [
        ServerConfig(scheme: "https", host: "evil.test"),
        ServerConfig(scheme: "http", host: "api.test"),
        ServerConfig(scheme: "https", host: "api.test", port: 8443),
        ServerConfig(scheme: "https", host: "api.test.evil.test"),
    ])
    func neverSendsTheTokenToAnotherOrigin(_ other: ServerConfig) async throws {
        let auth = AuthTokenAction(for: api) { "abc" }
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), to: other, action: auth) == nil)
    }

    @Test func matchesTheHostIgnoringCaseAndTheDefaultPort() async throws {
        let auth = AuthTokenAction(for: api) { "abc" }
        let same = ServerConfig(scheme: "HTTPS", host: "API.test", port: 443)
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), to: same, action: auth) == "Bearer abc")
    }

    @Test func headerNameAndSchemeAreConfigurable() async throws {
        let apiKey = AuthTokenAction(for: api, headerName: "X-Api-Key", scheme: "") { "k-123" }
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), action: apiKey, header: "X-Api-Key") == "k-123")
        let token = AuthTokenAction(for: api, scheme: "Token") { "t" }
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), action: token) == "Token t")
    }

    @Test func noTokenSendsTheRequestWithoutTheHeader() async throws {
        let auth = AuthTokenAction(for: api) { nil }
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), action: auth) == nil)
    }

    @Test func aFailingProviderFailsTheCallWithoutSendingIt() async throws {
        struct KeychainLocked: Error {}
        let session = ScriptedSession(.status(200))
        let auth = AuthTokenAction(for: api) { throw KeychainLocked() }
        let call = NetCall(server: api, endpoint: Endpoint.get("/me").requiringAuthentication(), actions: [auth],
                           callbackQueue: .immediate, firingFunction: session.firingFunction)
        let outcome = await result(of: call)
        #expect(session.requests.count == 0)
        guard case .failure(.refusedByAction(let error)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(error is KeychainLocked)
    }

    @Test func aTokenWithALineBreakIsRefusedInsteadOfInjectingHeaders() async throws {
        let session = ScriptedSession(.status(200))
        let auth = AuthTokenAction(for: api) { "abc\r\nX-Evil: 1" }
        let call = NetCall(server: api, endpoint: Endpoint.get("/me").requiringAuthentication(), actions: [auth],
                           callbackQueue: .immediate, firingFunction: session.firingFunction)
        let outcome = await result(of: call)
        #expect(session.requests.count == 0)
        guard case .failure(.invalidRequest(let problem)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(problem.part == .header)
    }

    @Test func byDefaultTheTokenFollowsTheServerTheCallIsFiredAt() async throws {
        var production = api
        production.actions = [AuthTokenAction { "abc" }]
        var staging = production
        staging.host = "staging.test"
        let endpoint = Endpoint.get("/me").requiringAuthentication()
        for server in [production, staging] {
            let session = ScriptedSession(.status(200))
            let call = NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: session.firingFunction)
            _ = await result(of: call)
            let request = try #require(session.requests.first)
            #expect(request.url?.host == server.host)
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        }
    }

    @Test func aPinnedTokenStaysOnItsServerAfterAnEnvironmentSwap() async throws {
        var staging = api
        staging.host = "staging.test"
        let pinned = AuthTokenAction(for: api) { "abc" }
        #expect(try await sentAuthorization(Endpoint.get("/me").requiringAuthentication(), to: staging, action: pinned) == nil)
    }

    @Test func aRequestWhoseURLLeavesTheCallsServerGetsNoToken() async throws {
        let auth = AuthTokenAction { "abc" }
        let call = NetCall(server: api, endpoint: Endpoint.get("/me").requiringAuthentication())
        for elsewhere in ["https://evil.test/me", "http://api.test/me", "https://api.test:8443/me"] {
            let request = URLRequest(url: try #require(URL(string: elsewhere)))
            #expect(try await auth.prepare(request, for: call).value(forHTTPHeaderField: "Authorization") == nil, "\(elsewhere)")
        }
        let home = URLRequest(url: try #require(URL(string: "https://API.test:443/me")))
        #expect(try await auth.prepare(home, for: call).value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    }
}
