import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// The current token, renewed by a counter.
private actor Tokens {
    private(set) var current = "expired"
    private(set) var renewals = 0

    func renew() {
        renewals += 1
        current = "fresh\(renewals)"
    }
}

/// Refuses a `101` head that did not choose a subprotocol.
private struct RequiresSubprotocol: NetworkAction {
    func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        guard outcome.error == nil, outcome.head?.statusCode == 101,
              outcome.head?.headers["Sec-WebSocket-Protocol"] == nil else { return .proceed }
        return .fail(.unacceptableResponse(ResponseProblem("the server chose no subprotocol", outcome: outcome)))
    }
}

/// Records each outcome's status (or error) and the attempt number.
private actor Outcomes {
    private(set) var seen: [String] = []
    func add(_ text: String) { seen.append(text) }
}

private struct Recording: NetworkAction {
    let outcomes: Outcomes
    func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        let status = outcome.head.map { "\($0.statusCode) \($0.url.absoluteString)" } ?? "error"
        await outcomes.add("\(attempt): \(status)")
        return .proceed
    }
}

/// The actions' `decide` on the WebSocket handshake: token renewal on 401, retry, validation of the 101 head.
@Suite struct WebSocketHandshakeActionsTests {
    private let server = ServerConfig(scheme: "wss", host: "feed.example.com", basePath: "v1")

    private func call(_ mock: MockWebSocketServer) -> WebSocketCall {
        var call = WebSocketCall(server: server, endpoint: .get("/feed"))
        call.transport = .mock(mock)
        return call
    }

    @Test func a401RenewsTheTokenAndTheSecondHandshakeCarriesIt() async throws {
        let tokens = Tokens()
        let mock = MockWebSocketServer(handshakes: [.refuse(statusCode: 401), .accept()]) { _ in }
        var call = call(mock)
        call.server.requiresAuthentication = true
        call.server.actions = [TokenRenewalAction { await tokens.renew() }, AuthTokenAction { await tokens.current }]
        let connection = try await call.connect()
        #expect(mock.log.handshakes.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer expired", "Bearer fresh1"])
        #expect(await tokens.renewals == 1)
        #expect(connection.url.absoluteString == "wss://feed.example.com/v1/feed")
    }

    @Test func aTokenPinnedToTheWSSServerIsSentOnItsHandshakeOnly() async throws {
        let mock = MockWebSocketServer(handshakes: [.accept(), .accept()]) { _ in }
        var pinned = call(mock)
        pinned.server.requiresAuthentication = true
        pinned.actions = [AuthTokenAction(for: server) { "t0k3n" }]
        _ = try await pinned.connect()
        var elsewhere = pinned
        elsewhere.actions = [AuthTokenAction(for: ServerConfig(scheme: "wss", host: "other.example.com")) { "t0k3n" }]
        _ = try await elsewhere.connect()
        #expect(mock.log.handshakes.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer t0k3n", nil])
    }

    @Test func aRetryActionRetriesAFailedHandshake() async throws {
        let mock = MockWebSocketServer(handshakes: [.fail(.cannotConnectToHost), .refuse(statusCode: 503), .accept()]) { _ in }
        var call = call(mock)
        call.actions = [RetryAction(maxAttempts: 3, baseDelay: 0, jitter: 0)]
        _ = try await call.connect()
        #expect(mock.log.handshakes.count == 3)
    }

    @Test func aRetryActionGivesUpAfterItsAttemptsWithTheLastError() async throws {
        let mock = MockWebSocketServer(handshakes: [.fail(.cannotConnectToHost), .fail(.cannotConnectToHost), .accept()]) { _ in }
        var call = call(mock)
        call.actions = [RetryAction(maxAttempts: 2, baseDelay: 0, jitter: 0)]
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .transport(let urlError) = error as? NetworkError else { return false }
            return urlError.code == .cannotConnectToHost
        }
        #expect(mock.log.handshakes.count == 2)
    }

    @Test func anActionCanRefuseA101HeadAndTheConnectionIsClosed() async throws {
        let mock = MockWebSocketServer(handshakes: [.accept()]) { peer in
            while await peer.receive() != nil {}
        }
        var call = call(mock)
        call.actions = [RequiresSubprotocol()]
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .unacceptableResponse(let problem) = error as? NetworkError else { return false }
            return "\(problem)".contains("no subprotocol")
        }
        #expect(mock.log.handshakes.count == 1)
        #expect(mock.log.closes == [WebSocketClose(.normalClosure)])
    }

    @Test func actionsDecideOnTheRefusedAndTheAcceptedHeadInTheWebSocketScheme() async throws {
        let outcomes = Outcomes()
        let mock = MockWebSocketServer(handshakes: [.refuse(statusCode: 503), .accept(subprotocols: ["v2"])]) { _ in }
        var call = call(mock)
        call.subprotocols = ["v2"]
        call.actions = [RetryAction(maxAttempts: 2, baseDelay: 0, jitter: 0), Recording(outcomes: outcomes), RequiresSubprotocol()]
        let connection = try await call.connect()
        #expect(connection.subprotocol == "v2")
        #expect(await outcomes.seen == ["1: 503 wss://feed.example.com/v1/feed", "2: 101 wss://feed.example.com/v1/feed"])
    }

    @Test func aRefused401WithoutRenewalIsStillServerStatus() async throws {
        let mock = MockWebSocketServer(handshakes: [.refuse(statusCode: 401), .accept()]) { _ in }
        var call = call(mock)
        call.actions = [RetryAction(baseDelay: 0, jitter: 0)]
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            (error as? NetworkError)?.statusCode == 401
        }
        #expect(mock.log.handshakes.count == 1)
    }
}
