import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Basic and bearer credentials from `AuthTokenAction`, and `TokenRenewalAction` against servers
/// that challenge with `WWW-Authenticate: Basic` (`/basic-auth`, `/status/401`).
@Suite(.requiresHTTPBin) struct AuthInteropTests {
    struct Authenticated: Decodable, Sendable {
        let authenticated: Bool
        let user: String?
        let token: String?
    }

    /// Where the auth action reads the credential and the refresh stores a new one.
    actor Credentials {
        private(set) var current: String?
        private(set) var refreshes = 0
        private let next: String?

        init(_ current: String?, refreshedTo next: String?) {
            self.current = current
            self.next = next
        }

        func refresh() async throws {
            refreshes += 1
            try await Task.sleep(nanoseconds: 50_000_000)   // long enough for concurrent 401s to join
            current = next
        }
    }

    private static func basic(_ user: String, _ password: String) -> String {
        Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// httpbin with a refresher and a Basic auth action on the server, as an app would set it up.
    private func server(basic credentials: Credentials, on httpbin: HTTPBin) -> HTTPBin {
        var server = httpbin.server
        server.actions = [
            TokenRenewalAction { try await credentials.refresh() },
            AuthTokenAction(scheme: "Basic") { await credentials.current },
        ]
        return HTTPBin(sharing: httpbin, server: server)
    }

    @Test(arguments: TransportUnderTest.all)
    func basicCredentialsAreAccepted(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(Endpoint.get("/basic-auth/ada/open-sesame").requiringAuthentication(),
                                actions: [AuthTokenAction(scheme: "Basic") { Self.basic("ada", "open-sesame") }])
        let reply = try await withTimeout { try await call.value(as: Authenticated.self) }
        #expect(reply.authenticated)
        #expect(reply.user == "ada")
    }

    @Test(arguments: TransportUnderTest.all, ["/basic-auth/ada/right", "/hidden-basic-auth/ada/right"])
    func wrongBasicCredentialsAreRefusedWithoutHanging(over transport: TransportUnderTest, _ path: String) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(Endpoint.get(EndpointPath(path)).requiringAuthentication(),
                                actions: [AuthTokenAction(scheme: "Basic") { Self.basic("ada", "wrong") }])
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == (path.hasPrefix("/hidden") ? 404 : 401))
    }

    @Test(arguments: TransportUnderTest.all)
    func aBearerTokenIsSentAndEchoed(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(Endpoint.get("/bearer").requiringAuthentication(), actions: [AuthTokenAction { "tok-123" }])
        let reply = try await withTimeout { try await call.value(as: Authenticated.self) }
        #expect(reply.authenticated)
        #expect(reply.token == "tok-123")
    }

    @Test(arguments: TransportUnderTest.all)
    func anEndpointThatDoesNotRequireAuthenticationGetsNoToken(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/headers"), actions: [AuthTokenAction { "tok-123" }])
        let echo = try await withTimeout { try await call.value(as: HTTPBinEcho.self) }
        #expect(echo.header("Authorization") == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func aRefreshAfterABasicChallengeRetriesWithTheNewCredential(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let credentials = Credentials(Self.basic("ada", "expired"), refreshedTo: Self.basic("ada", "fresh"))
        let call = server(basic: credentials, on: httpbin).call(Endpoint.get("/basic-auth/ada/fresh").requiringAuthentication())
        let reply = try await withTimeout { try await call.value(as: Authenticated.self) }
        #expect(reply.user == "ada")
        #expect(await credentials.refreshes == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func concurrentBasicChallengesShareOneRefresh(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let credentials = Credentials(Self.basic("ada", "expired"), refreshedTo: Self.basic("ada", "fresh"))
        let call = server(basic: credentials, on: httpbin).call(Endpoint.get("/basic-auth/ada/fresh").requiringAuthentication())
        let users = try await withTimeout(20) {
            try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await call.value(as: Authenticated.self).user }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(users == Array(repeating: "ada", count: 10))
        #expect(await credentials.refreshes == 1)
    }

    /// `/status/401` refuses every credential: the refresher gives up after its limit instead of
    /// looping, and every attempt completes although corelibs turns each into a challenge.
    @Test(arguments: TransportUnderTest.all)
    func aServerThatRefusesEveryCredentialEndsTheCallAfterTheRefreshLimit(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let credentials = Credentials(Self.basic("ada", "expired"), refreshedTo: Self.basic("ada", "also-refused"))
        let call = server(basic: credentials, on: httpbin).call(Endpoint.get("/status/401").requiringAuthentication())
        let failure = await networkError(within: 15) { try await call.response() }
        guard case .unacceptableResponse(let problem)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(problem.statusCode == 401)
        #expect(problem.headers["WWW-Authenticate"] == "Basic realm=\"Fake Realm\"")
        #expect(await credentials.refreshes == 3)
    }

    @Test(arguments: TransportUnderTest.all)
    func aFailingRefreshFailsTheCallWithTheRefreshError(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        struct RefreshRefused: Error {}
        var server = httpbin.server
        server.actions = [
            TokenRenewalAction { throw RefreshRefused() },
            AuthTokenAction(scheme: "Basic") { Self.basic("ada", "expired") },
        ]
        let call = HTTPBin(sharing: httpbin, server: server).call(Endpoint.get("/basic-auth/ada/fresh").requiringAuthentication())
        let failure = await networkError { try await call.response() }
        guard case .unacceptableResponse(let problem)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(problem.statusCode == 401)
        #expect(problem.underlying is RefreshRefused)
    }
}
