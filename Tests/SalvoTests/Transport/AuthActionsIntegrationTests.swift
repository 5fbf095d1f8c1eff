import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Auth token and single-flight refresh against the loopback server's `/auth/<key>/…` routes.
@Suite struct AuthActionsIntegrationTests {
    private struct TokenReply: Decodable, Sendable { let token: String }
    private struct Stats: Decodable, Sendable { let refreshes: Int; let token: String }
    private struct Protected: Decodable, Sendable { let ok: Bool }

    /// A client whose stored token has expired, with the refresher and auth action on its server.
    private struct Client: Sendable {
        let key = uniqueKey()
        let token = Locked("expired-token")
        let server: ServerConfig
        let firing: FiringFunction

        init(over transport: TransportUnderTest, logging: LoggingAction? = nil) async throws {
            let firing = transport.firing
            var server = try await ServerConfig.loopback()
            let (key, token) = (key, token)
            var refreshServer = server
            refreshServer.actions = logging.map { [$0] } ?? []
            let refresher = TokenRenewalAction { [refreshServer] in
                let reply = try await NetCall(server: refreshServer, endpoint: .post("/auth/\(key)/refresh"), firingFunction: firing).value(as: TokenReply.self)
                token.withLock { $0 = reply.token }
            }
            server.actions = [refresher, AuthTokenAction(for: server) { token.withLock { $0 } }] + (logging.map { [$0] } ?? [])
            self.server = server
            self.firing = firing
        }

        var protected: NetCall {
            NetCall(server: server, endpoint: Endpoint.get("/auth/\(key)/protected").requiringAuthentication(), firingFunction: firing)
        }

        func stats() async throws -> Stats {
            try await NetCall(server: .loopback(), endpoint: .get("/auth/\(key)/stats"), firingFunction: firing).value(as: Stats.self)
        }

        func fireConcurrently(_ count: Int) async -> [Result<Protected, NetworkError>] {
            let call = protected
            return await withTaskGroup(of: Result<Protected, NetworkError>.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        do { return .success(try await withTimeout(20) { try await call.value(as: Protected.self) }) }
                        catch let error as NetworkError { return .failure(error) }
                        catch { return .failure(.transport(URLError(.timedOut))) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func twentyConcurrentCallsWithAnExpiredTokenShareOneRefreshAndAllSucceed(over transport: TransportUnderTest) async throws {
        let client = try await Client(over: transport)
        let results = await client.fireConcurrently(20)
        #expect(results.filter { (try? $0.get().ok) == true }.count == 20, "\(results.filter { (try? $0.get()) == nil })")
        let stats = try await client.stats()
        #expect(stats.refreshes == 1)
        #expect(client.token.withLock { $0 } == stats.token)
    }

    @Test(arguments: TransportUnderTest.all)
    func aFailingRefreshFailsAllTwentyCallsWithTheRefreshErrorAndIsNotRetried(over transport: TransportUnderTest) async throws {
        let client = try await Client(over: transport)
        _ = try await NetCall(server: .loopback(), endpoint: .post("/auth/\(client.key)/config").setting(query: "fail_refresh", to: "1"), firingFunction: transport.firing).response()
        let results = await client.fireConcurrently(20)
        #expect(results.count == 20)
        for result in results {
            guard case .failure(.unacceptableResponse(let problem)) = result else { Issue.record("got \(result)"); continue }
            #expect(problem.statusCode == 401)
            #expect(NetworkError.unacceptableResponse(problem).renewalError?.statusCode == 500)
            #expect((problem.underlying as? NetworkError)?.statusCode == 500)
            #expect((problem.underlying as? NetworkError)?.description.contains("/auth/\(client.key)/refresh") == true)
        }
        #expect(try await LoopbackServer.count(path: "/auth/\(client.key)/refresh") == 1)
        #expect(try await client.stats().refreshes == 0)
    }

    private struct OAuthProblem: Decodable, Sendable { let error: String }

    @Test(arguments: TransportUnderTest.all)
    func aRenewalRefusedWith401IsARenewalFailureWhoseTypedBodyIsTheRefreshEndpoints(over transport: TransportUnderTest) async throws {
        let client = try await Client(over: transport)
        _ = try await NetCall(server: .loopback(), endpoint: .post("/auth/\(client.key)/config").setting(query: "fail_refresh", to: "401"), firingFunction: transport.firing).response()
        do {
            _ = try await withTimeout { try await TypedCall<Protected, OAuthProblem>(client.protected).value() }
            Issue.record("the call succeeded")
        } catch let error as APIError<OAuthProblem> {
            #expect(error.error.isRenewalFailure)
            let renewal = try #require(error.error.renewalError)
            #expect(renewal.statusCode == 401)
            #expect(renewal.description.contains("/auth/\(client.key)/refresh answered with status 401"))
            #expect(error.body?.error == "invalid_grant")
            let description = error.description
            #expect(description.components(separatedBy: "invalid_grant").count == 2, "the cause once: \(description)")
            #expect(error.localizedDescription == "Your session has expired. Please sign in again.")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theTokenIsNotSentToASecondHost(over transport: TransportUnderTest) async throws {
        let client = try await Client(over: transport)
        var elsewhere = client.server
        elsewhere.host = "localhost"
        let echo = try await NetCall(server: elsewhere, endpoint: Endpoint.get("/echo").requiringAuthentication(), firingFunction: transport.firing).value(as: Echo.self)
        #expect(echo.header("Authorization") == nil)
        let home = try await NetCall(server: client.server, endpoint: Endpoint.get("/echo").requiringAuthentication(), firingFunction: transport.firing).value(as: Echo.self)
        #expect(home.header("Authorization") == "Bearer expired-token")
    }

    @Test(arguments: TransportUnderTest.all)
    func aServerThatRequiresAuthenticationAndFiresItsCallsNeedsNeitherOnEachCall(over transport: TransportUnderTest) async throws {
        let client = try await Client(over: transport)
        var server = client.server
        server.requiresAuthentication = true
        server.firingFunction = transport.firing
        let echo = try await NetCall(server: server, endpoint: .get("/echo")).value(as: Echo.self)
        #expect(echo.header("Authorization") == "Bearer expired-token")
        let optedOut = try await NetCall(server: server, endpoint: Endpoint.get("/echo").requiringAuthentication(false)).value(as: Echo.self)
        #expect(optedOut.header("Authorization") == nil)
        let protected = try await NetCall(server: server, endpoint: .get("/auth/\(client.key)/protected")).value(as: Protected.self)
        #expect(protected.ok, "the token is renewed and sent again without requiringAuthentication() on the endpoint")
    }

    @Test(arguments: TransportUnderTest.all)
    func theTokenDoesNotFollowARedirectToASecondHost(over transport: TransportUnderTest) async throws {
        let client = try await Client(over: transport)
        let port = try await LoopbackServer.port()
        let endpoint = Endpoint.get("/redirect", query: ["to": "http://localhost:\(port)/echo/landed"]).requiringAuthentication()
        let echo = try await NetCall(server: client.server, endpoint: endpoint, firingFunction: transport.firing).value(as: Echo.self)
        #expect(echo.path == "/echo/landed")
        #expect(echo.header("Authorization") == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func logsOfTheWholeDanceContainNoSecret(over transport: TransportUnderTest) async throws {
        let transcript = Transcript()
        let logging = LoggingAction(includesHeaders: true, includesBodies: true, redaction: .default.adding(queryKeys: ["token"]), sink: transcript.append)
        let client = try await Client(over: transport, logging: logging)
        let protected = try await withTimeout { try await client.protected.value(as: Protected.self) }
        #expect(protected.ok)
        let token = client.token.withLock { $0 }
        let text = transcript.text
        #expect(text.contains("← 401 GET"))
        #expect(text.contains("← 200 GET"))
        #expect(text.contains("→ POST") && text.contains("/refresh"))
        for secret in ["expired-token", token] {
            #expect(!text.contains(secret), "\(secret) leaked into:\n\(text)")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theTokenFollowsAnEnvironmentSwapToASecondOrigin(over transport: TransportUnderTest) async throws {
        var production = try await ServerConfig.loopback()
        production.actions = [AuthTokenAction { "env-token" }]
        var staging = production
        staging.host = "localhost"   // same server process, a second origin
        for server in [production, staging] {
            let echo = try await withTimeout { try await NetCall(server: server, endpoint: Endpoint.get("/echo/env").requiringAuthentication(), firingFunction: transport.firing).value(as: Echo.self) }
            #expect(echo.header("Host")?.hasPrefix(server.host) == true)
            #expect(echo.header("Authorization") == "Bearer env-token", "\(server.host)")
        }
    }

    @Test(arguments: TransportUnderTest.all, ["127.0.0.1", "localhost"])
    func aFollowingTokenDoesNotFollowARedirectToTheOtherOrigin(over transport: TransportUnderTest, _ host: String) async throws {
        var server = try await ServerConfig.loopback()
        server.host = host
        server.actions = [AuthTokenAction { "env-token" }]
        let other = host == "localhost" ? "127.0.0.1" : "localhost"
        let port = try await LoopbackServer.port()
        let endpoint = Endpoint.get("/redirect", query: ["to": "http://\(other):\(port)/echo/landed"]).requiringAuthentication()
        let configured = server
        let echo = try await withTimeout { try await NetCall(server: configured, endpoint: endpoint, firingFunction: transport.firing).value(as: Echo.self) }
        #expect(echo.path == "/echo/landed")
        #expect(echo.header("Host")?.hasPrefix(other) == true)
        #expect(echo.header("Authorization") == nil)
    }
}
