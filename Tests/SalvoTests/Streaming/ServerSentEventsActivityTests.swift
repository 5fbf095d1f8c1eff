import Foundation
import Testing
import SalvoTesting
@_spi(Transport) @testable import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `call.events().activity`: events with comments and connection states, in order.
@Suite(.leavesNoSpillFiles) struct ServerSentEventsActivityTests {
    typealias Step = ScriptedStreamSession.Step

    private func call(_ session: ScriptedStreamSession) -> NetCall {
        NetCall(server: ServerConfig(host: "events.example"), endpoint: .get("/feed"), firingFunction: .session(session, clock: .immediate))
    }

    @Test func commentsAndStatesComeInOrderWithTheEvents() async throws {
        let session = ScriptedStreamSession([
            .events(": welcome\n\ndata: a\n:heartbeat\n\n: between\ndata: b\n\n: last\n"),
            [.head(status: 204)],
        ])
        let policy = ReconnectionPolicy(jitter: 0, clock: .immediate)
        let (activity, error) = try await readAll(call(session).events(reconnection: policy).activity)
        #expect(activity == [
            .state(.connecting),
            .state(.open),
            .comment("welcome"),
            .comment("heartbeat"),
            .event(ServerSentEvent(data: "a")),
            .comment("between"),
            .event(ServerSentEvent(data: "b")),
            .comment("last"),
            .state(.waitingToReconnect(seconds: 3)),
            .state(.connecting),
            .state(.closed),
        ])
        #expect(error == nil)
    }

    @Test func theWaitIsShownBeforeItStarts() async throws {
        let time = TestClock()
        let session = ScriptedStreamSession([[.fail(.cannotConnectToHost)], [.head(status: 204)]])
        let activity = call(session).events(reconnection: ReconnectionPolicy(clock: time.clock)).activity
        let reading = Task {
            var seen: [(EventStreamActivity, sleepers: Int)] = []
            for try await next in activity { seen.append((next, time.sleeperCount)) }
            return seen
        }
        #expect(await time.waitForSleepers(1))
        time.advance(by: 3)
        let seen = try await reading.value
        #expect(seen.map { $0.0 } == [.state(.connecting), .state(.waitingToReconnect(seconds: 3)), .state(.connecting), .state(.closed)])
        #expect(seen.map { $0.sleepers } == [0, 0, 0, 0], "each state is handed out before what it announces")
    }

    @Test func aFailureThrowsAfterTheStatesBeforeIt() async throws {
        let session = ScriptedStreamSession([[.head(status: 500), .text("down"), .end]])
        let (activity, error) = try await readAll(call(session).events(reconnection: .never).activity)
        #expect(activity == [.state(.connecting)])
        #expect(error?.statusCode == 500)
    }

    @Test func theEventsAloneSkipCommentsAndStates() async throws {
        let session = ScriptedStreamSession([.events(": hi\ndata: a\n\n")])
        let (events, _) = try await readAll(call(session).events(reconnection: .never))
        #expect(events == [ServerSentEvent(data: "a")])
    }

    /// Heartbeat comments arrive every 6 s against an idle timeout of 10 s: the connection stays up.
    @Test func heartbeatCommentsKeepAConnectionAlive() async throws {
        let time = TestClock()
        let beats: [Step] = Array(repeating: .text(": beat\n"), count: 5)
        let session = ScriptedStreamSession([[.eventStreamHead] + beats + [.text("data: a\n\n"), .end]])
        let policy = ReconnectionPolicy(idleTimeout: 10, methods: [], clock: time.clock)
        var received: [EventStreamActivity] = []
        for try await activity in call(session).events(reconnection: policy).activity {
            received.append(activity)
            if activity == .comment("beat") { time.advance(by: 6) }
        }
        #expect(received.filter { $0 == .comment("beat") }.count == 5)
        #expect(received.contains(.event(ServerSentEvent(data: "a"))))
        #expect(received.last == .state(.closed))
        #expect(session.cancellations == 0, "30 s in all, never 10 s without a byte")
    }
}
