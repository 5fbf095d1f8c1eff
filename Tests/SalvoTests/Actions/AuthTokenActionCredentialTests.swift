import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// The header an ``AuthTokenAction`` sets is a credential of the calls that run the action, and of
/// those only: dropped when their redirect leaves the origin, hidden in their logs and cURL output.
@Suite struct AuthTokenActionCredentialTests {
    private let api = ServerConfig(scheme: "https", host: "api.test")

    /// Fires `call` through a mock that sends every request to api.test on to another origin, and
    /// returns the request that landed there.
    private func landedRequest(of endpoint: Endpoint, actions: [any NetworkAction]) async throws -> URLRequest {
        let landed = Locked<[URLRequest]>([])
        let session = MockSession { mock in
            guard mock.url?.host == "api.test" else {
                landed.withLock { $0.append(mock.request) }
                return .status(200)
            }
            return .redirect(to: "https://elsewhere.test/landed", status: 307)
        }
        let call = NetCall(server: api, endpoint: endpoint, actions: actions, callbackQueue: .immediate, firingFunction: .session(session))
        _ = try await result(of: call).get()
        return try #require(landed.withLock { $0.first })
    }

    @Test func twoAuthActionsWithDifferentHeadersDoNotAffectEachOther() async throws {
        let first = AuthTokenAction(for: api, headerName: "X-First-Key", scheme: "") { "first-secret" }
        let second = AuthTokenAction(for: api, headerName: "X-Second-Key", scheme: "") { "second-secret" }

        // Each call sends the other's header name as an ordinary header of its own.
        let firstEndpoint = Endpoint.get("/a", headers: ["X-Second-Key": "plain", "Authorization": "Bearer t"]).requiringAuthentication()
        let firstLanded = try await landedRequest(of: firstEndpoint, actions: [first])
        #expect(firstLanded.value(forHTTPHeaderField: "X-First-Key") == nil)
        #expect(firstLanded.value(forHTTPHeaderField: "X-Second-Key") == "plain")
        #expect(firstLanded.value(forHTTPHeaderField: "Authorization") == nil, "a standard credential is every call's")

        let secondEndpoint = Endpoint.get("/b", headers: ["X-First-Key": "plain"]).requiringAuthentication()
        let secondLanded = try await landedRequest(of: secondEndpoint, actions: [second])
        #expect(secondLanded.value(forHTTPHeaderField: "X-Second-Key") == nil)
        #expect(secondLanded.value(forHTTPHeaderField: "X-First-Key") == "plain")
    }

    @Test func aCallWithoutAnAuthActionKeepsAHeaderOfThatNameOnARedirect() async throws {
        _ = AuthTokenAction(for: api, headerName: "X-Elsewhere-Key") { "secret" }
        let landed = try await landedRequest(of: Endpoint.get("/a", headers: ["X-Elsewhere-Key": "plain", "Cookie": "s=1"]), actions: [])
        #expect(landed.value(forHTTPHeaderField: "X-Elsewhere-Key") == "plain")
        #expect(landed.value(forHTTPHeaderField: "Cookie") == nil)
    }

    @Test func theLogOfACallHidesItsOwnAuthHeaderOnly() async throws {
        let lines = Locked<[String]>([])
        let logging = LoggingAction(includesHeaders: true) { line in lines.withLock { $0.append(line) } }
        let auth = AuthTokenAction(for: api, headerName: "X-First-Key", scheme: "") { "first-secret" }
        let endpoint = Endpoint.get("/a", headers: ["X-Second-Key": "shown-value"]).requiringAuthentication()
        let call = NetCall(server: api, endpoint: endpoint, actions: [auth, logging], callbackQueue: .immediate,
                           firingFunction: .session(MockSession { _ in .status(200) }))
        _ = try await result(of: call).get()
        let request = try #require(lines.withLock { $0.first })
        #expect(request.contains("X-First-Key: <redacted>"))
        #expect(!request.contains("first-secret"))
        #expect(request.contains("X-Second-Key: shown-value"))
    }

    @Test func curlHidesTheCallsAuthHeaderWhenItHidesAuthorization() throws {
        let auth = AuthTokenAction(for: api, headerName: "X-First-Key") { nil }
        let endpoint = Endpoint.get("/a", headers: ["X-First-Key": "typed-by-hand"])
        let guarded = NetCall(server: api, endpoint: endpoint, actions: [auth])
        #expect(!(try guarded.curlCommand()).contains("typed-by-hand"))
        #expect(try guarded.curlCommand(redaction: .none).contains("typed-by-hand"))
        #expect(try NetCall(server: api, endpoint: endpoint).curlCommand().contains("typed-by-hand"))
    }

    @Test func aCustomHeaderIsGuardedOnlyWhereItsCallProtectsIt() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.setValue("k", forHTTPHeaderField: "X-First-Key")
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: ["x-first-key"]) == ["X-First-Key"])
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: ["x-second-key"]).isEmpty)
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: []).isEmpty)
    }
}
