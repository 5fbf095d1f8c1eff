import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// A token store and a scripted server that accepts only its current token.
private final class TokenWorld: Sendable {
    let server = ServerConfig(scheme: "https", host: "api.test")
    let clientToken = Locked("expired")
    let serverToken = Locked("fresh-1")
    let refreshes = Locked(0)

    /// 401 unless the request carries the server's current token.
    let session: ScriptedSession

    init() {
        session = ScriptedSession { [serverToken] request, _ in
            request.value(forHTTPHeaderField: "Authorization") == "Bearer " + serverToken.withLock { $0 }
                ? .status(200, body: Data("ok".utf8)) : .status(401)
        }
    }

    var auth: AuthTokenAction { AuthTokenAction(for: server) { [clientToken] in clientToken.withLock { $0 } } }

    /// A refresh that counts, waits `delay` so callers pile up, then stores the server's token.
    func refresher(
        delay: Double = 0.05,
        maxRenewals: Int = 3,
        now: @escaping @Sendable () -> Date = Date.init,
        failWith error: (any Error)? = nil
    ) -> TokenRenewalAction {
        TokenRenewalAction(maxRenewals: maxRenewals, now: now) { [refreshes, clientToken, serverToken] in
            refreshes.withLock { $0 += 1 }
            try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            if let error { throw error }
            clientToken.withLock { $0 = serverToken.withLock { $0 } }
        }
    }

    func call(_ refresher: TokenRenewalAction, method: HTTPMethod = .get) -> NetCall {
        var server = server
        server.actions = [refresher, auth]
        return NetCall(server: server, endpoint: Endpoint(method: method, path: "/me").requiringAuthentication(),
                       callbackQueue: .immediate, firingFunction: session.firingFunction)
    }
}

private struct RefreshDenied: Error {}

@Suite struct TokenRenewalActionTests {
    @Test func manyConcurrent401sRunOneRefreshAndAllSucceed() async throws {
        let world = TokenWorld()
        let call = world.call(world.refresher())
        let results = await withTaskGroup(of: Result<NetworkResponse, NetworkError>.self) { group in
            for _ in 0..<10 { group.addTask { await result(of: call) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(world.refreshes.withLock { $0 } == 1)
        #expect(results.allSatisfy { (try? $0.get().statusCode) == 200 })
    }

    @Test func aCallThatReadTheOldTokenBeforeTheRenewalEndedRetriesWithoutRenewingAgain() async throws {
        let world = TokenWorld()
        let refresher = world.refresher(delay: 0)
        _ = await result(of: world.call(refresher))
        #expect(world.refreshes.withLock { $0 } == 1)
        // Another call read the expired token before that renewal ended and sent it after.
        let url = try #require(URL(string: "https://api.test/me"))
        var request = URLRequest(url: url)
        request.setValue("Bearer expired", forHTTPHeaderField: "Authorization")
        let refused = AttemptOutcome(request: request, head: ResponseHead(statusCode: 401, url: url), duration: 0)
        let first = await refresher.decide(after: refused, for: world.call(refresher), attempt: 1)
        guard case .retry = first else { Issue.record("expected a retry, got \(first)"); return }
        #expect(world.refreshes.withLock { $0 } == 1, "no second renewal")
        // Refused again with that credential on its next attempt: a renewal that stored the same
        // token; this one renews, so the limit still ends it.
        let again = await refresher.decide(after: refused, for: world.call(refresher), attempt: 2)
        guard case .retry = again else { Issue.record("expected a retry, got \(again)"); return }
        #expect(world.refreshes.withLock { $0 } == 2)
    }

    @Test func aFailedRefreshFailsEveryWaitingCallWithTheRefreshError() async throws {
        let world = TokenWorld()
        let call = world.call(world.refresher(failWith: RefreshDenied()))
        let results = await withTaskGroup(of: Result<NetworkResponse, NetworkError>.self) { group in
            for _ in 0..<10 { group.addTask { await result(of: call) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(world.refreshes.withLock { $0 } == 1)
        for outcome in results {
            guard case .failure(.unacceptableResponse(let problem)) = outcome else { Issue.record("got \(outcome)"); continue }
            #expect(problem.underlying is RefreshDenied)
            #expect(problem.statusCode == 401)
            #expect(problem.reason.contains("renewing the access token failed"))
        }
    }

    @Test func aFailedRefreshIsNotTriedAgainForTheSameTokenUntilTheHoldPasses() async throws {
        let world = TokenWorld()
        let clock = Locked(Date(timeIntervalSince1970: 1_000))
        let refresher = world.refresher(delay: 0, now: { clock.withLock { $0 } }, failWith: RefreshDenied())
        _ = await result(of: world.call(refresher))
        clock.withLock { $0 += 5 }
        _ = await result(of: world.call(refresher))
        #expect(world.refreshes.withLock { $0 } == 1)
        clock.withLock { $0 += 10 }
        _ = await result(of: world.call(refresher))
        #expect(world.refreshes.withLock { $0 } == 2)
    }

    @Test func theRefreshCallItselfNeverTriggersARefresh() async throws {
        let world = TokenWorld()
        let refreshCall = Locked<NetCall?>(nil)
        let attempts = Locked(0)
        // The refresh goes to the same server, through the same refresher, and is refused too.
        let refresher = TokenRenewalAction {
            attempts.withLock { $0 += 1 }
            _ = try await refreshCall.withLock { $0 }?.response()
        }
        var refresh = world.call(refresher, method: .post)
        refresh.endpoint.path = "/refresh"
        refreshCall.withLock { $0 = refresh }
        let outcome = await result(of: world.call(refresher))
        #expect(attempts.withLock { $0 } == 1)
        #expect(world.session.requests.count == 2)
        guard case .failure(.unacceptableResponse(let problem)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect((problem.underlying as? NetworkError)?.statusCode == 401)
    }

    @Test func responsesToRequestsWithoutACredentialPassUntouched() async throws {
        let world = TokenWorld()
        world.clientToken.withLock { $0 = "" }
        let outcome = await result(of: world.call(world.refresher()))
        #expect(world.refreshes.withLock { $0 } == 0)
        guard case .failure(let error) = outcome else { Issue.record("expected 401"); return }
        #expect(error.statusCode == 401)
    }

    private struct TokenReply: Decodable, Sendable { let token: String }
    private struct OAuthProblem: Decodable, Sendable { let error: String }

    /// A renewal that posts to a refresh endpoint answering 401 with a JSON error body, through
    /// an untyped call or, with `typed`, a typed one (which throws an `APIError`).
    private static func refusedRenewal(typed: Bool) -> TokenRenewalAction {
        let refreshSession = ScriptedSession(.status(401, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"invalid_grant"}"#.utf8)))
        let refresh = NetCall(server: ServerConfig(host: "auth.test"), endpoint: .post("/oauth/token"), callbackQueue: .immediate, firingFunction: refreshSession.firingFunction)
        return TokenRenewalAction {
            if typed {
                _ = try await TypedCall<TokenReply, OAuthProblem>(refresh).value()
            } else {
                _ = try await refresh.value(as: TokenReply.self)
            }
        }
    }

    @Test(arguments: [false, true])
    func aFailedRenewalIsACatchableRenewalFailureCarryingTheRenewalsStatusAndBody(typedRenewal: Bool) async throws {
        let world = TokenWorld()
        let call = world.call(Self.refusedRenewal(typed: typedRenewal))
        do {
            _ = try await TypedCall<TokenReply, OAuthProblem>(call).value()
            Issue.record("the call succeeded")
        } catch let error where error.error.isRenewalFailure {
            let renewal = try #require(error.error.renewalError)
            #expect(renewal.statusCode == 401)
            #expect(renewal.responseBody == Data(#"{"error":"invalid_grant"}"#.utf8))
            #expect(error.body?.error == "invalid_grant", "the typed error body is the refresh endpoint's")
            #expect(error.localizedDescription == "Your session has expired. Please sign in again.")
        } catch {
            Issue.record("not a renewal failure: \(error)")
        }
    }

    @Test func aFailedRenewalsDescriptionStatesItsCauseOnce() async throws {
        let world = TokenWorld()
        let outcome = await result(of: world.call(Self.refusedRenewal(typed: false)))
        guard case .failure(let error) = outcome else { Issue.record("got \(outcome)"); return }
        let text = error.description
        #expect(text.contains("https://api.test/me answered with status 401, but the response was refused: renewing the access token failed."), "\(text)")
        #expect(text.components(separatedBy: "https://auth.test/oauth/token answered with status 401").count == 2, "the cause once: \(text)")
        #expect(text.components(separatedBy: "renewing the access token failed").count == 2, "\(text)")
    }

    @Test func otherFailuresAreNotRenewalFailures() async throws {
        let world = TokenWorld()
        let unrenewed = await result(of: NetCall(server: world.server, endpoint: .get("/me"), callbackQueue: .immediate, firingFunction: world.session.firingFunction))
        guard case .failure(let error) = unrenewed else { Issue.record("got \(unrenewed)"); return }
        #expect(error.statusCode == 401)
        #expect(!error.isRenewalFailure)
        #expect(error.renewalError == nil)
        #expect(!NetworkError.unacceptableResponse(ResponseProblem("not JSON", statusCode: 200)).isRenewalFailure)
    }

    @Test func theRateCapStopsARefreshStorm() async throws {
        let world = TokenWorld()
        // The refresh "succeeds" but stores a token the server still refuses.
        let refresher = TokenRenewalAction(maxRenewals: 2) { [world] in world.refreshes.withLock { $0 += 1 } }
        let outcome = await result(of: world.call(refresher))
        #expect(world.refreshes.withLock { $0 } == 2)
        #expect(world.session.requests.count == 3)
        guard case .failure(let error) = outcome, case .unacceptableResponse(let problem) = error else { Issue.record("got \(outcome)"); return }
        #expect(problem.reason.contains("renewed 2 times"))
        #expect(error.isRenewalFailure)
        #expect(error.renewalError == nil)
    }

    @Test func aRefusedPOSTIsFiredAgainAfterTheRefresh() async throws {
        let world = TokenWorld()
        let response = try await withTimeout { try await world.call(world.refresher(delay: 0), method: .post).response() }
        #expect(response.statusCode == 200)
        #expect(world.session.requests.count == 2)
    }

    @Test func otherStatusesPassUntouched() async throws {
        let refresher = TokenRenewalAction { Issue.record("refresh must not run") }
        let url = URL(string: "https://api.test/me")!
        var request = URLRequest(url: url)
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let outcome = AttemptOutcome(request: request, urlResponse: HTTPURLResponse(url: url, statusCode: 403, httpVersion: nil, headerFields: nil))
        let decision = await refresher.decide(after: outcome, for: NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/me")), attempt: 1)
        guard case .proceed = decision else { Issue.record("got \(decision)"); return }
    }
}
