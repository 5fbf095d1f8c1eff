import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) @testable import Salvo
@testable import SalvoAsyncHTTPClient
import Testing

/// The session's one watch over its exchanges' idle timeouts (``IdleWatch``), against the
/// loopback server: a short timeout among long ones, a body that keeps arriving, and exchanges
/// that leave the watch however they end.
@Suite struct IdleWatchTests {
    private func call(_ endpoint: Endpoint, through session: AsyncHTTPClientSession) async throws -> NetCall {
        NetCall(server: try await .loopback(), endpoint: endpoint, firingFunction: .asyncHTTPClient(session))
    }

    /// The check is first scheduled for the long timeout; the short one must move it earlier.
    ///
    /// The margins are wide because this suite also runs under TSan beside every other suite on two
    /// cores, where a connection can take a second to open: a check left at the long timeout would
    /// end the short call only after 60 s, and the server answers it after 10 s, so anything under
    /// 8 s shows the check moved. `aSubSecondTimeoutIsHonouredToTheMillisecond` covers precision.
    @Test func aShortTimeoutAmongLongOnesExpiresOnTime() async throws {
        let session = AsyncHTTPClientSession()
        let long = try await call(Endpoint.get("/slow", query: ["delay": "2"]).timeout(60), through: session)
        let longCall = Task { try await long.response() }
        try await Task.sleep(for: .milliseconds(100))
        let short = try await call(Endpoint.get("/slow", query: ["delay": "10"]).timeout(1), through: session)
        let started = Date()
        let error = await networkError { try await short.response() }
        let elapsed = Date().timeIntervalSince(started)
        guard case .transport(let urlError)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(urlError.code == .timedOut)
        #expect(elapsed >= 0.99 && elapsed < 8, "a 1 s timeout took \(elapsed) s")
        // The long call is still inside its timeout and gets its answer.
        #expect(try await longCall.value.head?.statusCode == 200)
        #expect(session.idleWatch.count == 0)
        try await session.shutdown()
    }

    /// 8 parts 0.5 s apart take 3.5 s in all, but the exchange is never idle for its 2.5 s.
    ///
    /// The 2 s between a part and the timeout leaves room for a slow loopback server under TSan.
    @Test func aBodyThatKeepsArrivingOutlivesItsTimeout() async throws {
        let session = AsyncHTTPClientSession()
        let call = try await call(Endpoint.get("/stream/chunked", query: ["chunks": "8", "size": "100", "delay": "0.5"]).timeout(2.5), through: session)
        let started = Date()
        let response = try await call.response()
        #expect(response.data.count == 800)
        #expect(Date().timeIntervalSince(started) >= 3.5)
        #expect(session.idleWatch.count == 0)
        try await session.shutdown()
    }

    @Test func exchangesLeaveTheWatchHoweverTheyEnd() async throws {
        let session = AsyncHTTPClientSession()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                let endpoint: Endpoint = switch index % 4 {
                case 0: .get("/echo/ok")
                case 1: .get("/status/404")
                case 2: Endpoint.get("/slow", query: ["delay": "5"]).timeout(0.2)
                default: .get("/bytes", query: ["n": "100000"])
                }
                let call = try await call(endpoint, through: session)
                group.addTask { _ = try? await call.response() }
            }
            try await group.waitForAll()
        }
        // Cancelled mid-exchange.
        let slow = try await call(Endpoint.get("/slow", query: ["delay": "5"]).timeout(30), through: session)
        let cancelled = Task { try await slow.response() }
        try await Task.sleep(for: .milliseconds(100))
        cancelled.cancel()
        _ = try? await cancelled.value
        // The call throws `.cancelled` at once; its exchange ends when AsyncHTTPClient has stopped the request.
        for _ in 0..<100 where session.idleWatch.count > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(session.idleWatch.count == 0)
        try await session.shutdown()
    }
}
