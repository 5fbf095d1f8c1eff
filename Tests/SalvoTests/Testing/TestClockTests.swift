import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Time under test control: retry back-off and mock latency wait for the test, not the wall clock.
@Suite struct TestClockTests {
    private let server = ServerConfig(host: "api.test")

    @Test func aRetryWaitsForTheClockAndFiresWhenItIsAdvanced() async throws {
        let time = TestClock()
        let session = ScriptedSession(.status(503), .status(200, body: Data("ok".utf8)))
        let call = NetCall(server: server, endpoint: .get("/x"), actions: [RetryAction(baseDelay: 30, jitter: 0)],
                           callbackQueue: .immediate, firingFunction: .session(session, clock: time.clock))
        let response = Task { try await call.response() }
        #expect(await time.waitForSleepers(1))
        #expect(time.sleeps == [30])
        #expect(session.requests.count == 1)
        time.advance(by: 29)
        #expect(time.sleeperCount == 1)
        time.advance(by: 1)
        #expect(String(decoding: try await withTimeout { try await response.value }.data, as: UTF8.self) == "ok")
        #expect(session.requests.count == 2)
    }

    @Test func mockLatencyWaitsForTheClock() async throws {
        let time = TestClock()
        let log = ResponderLog()
        let call = NetCall(server: server, endpoint: .get("/"), responder: log.responder, callbackQueue: .immediate,
                           firingFunction: .mock(.text("late").delayed(by: 0.3), clock: time.clock))
        call.fire()
        #expect(await time.waitForSleepers(1))
        #expect(!log.isFinished)
        #expect(time.sleeps == [0.3])
        time.runToEnd()
        #expect(await log.waitForOutcome().last == .data(Data("late".utf8)))
    }

    @Test func cancellingWhileWaitingDeliversCancelledOnceAndNeverFires() async throws {
        let time = TestClock()
        let session = ScriptedSession(.status(503))
        let log = ResponderLog()
        let call = NetCall(server: server, endpoint: .get("/x"), responder: log.responder, actions: [RetryAction(baseDelay: 5, jitter: 0)],
                           callbackQueue: .immediate, firingFunction: .session(session, clock: time.clock))
        let task = call.fire()
        #expect(await time.waitForSleepers(1))
        task.cancel()
        let events = await log.waitForOutcome()
        #expect(events.contains(.error(.cancelled)))
        #expect(await eventually { time.sleeperCount == 0 }, "the cancelled wait is dropped")
        time.advance(by: 60)
        #expect(session.requests.count == 1)
    }

    @Test func theImmediateClockNeverWaits() async throws {
        let session = ScriptedSession(.status(503), .status(503), .status(200, body: Data("ok".utf8)))
        let call = NetCall(server: server, endpoint: .get("/x"), actions: [RetryAction(baseDelay: 3_600, maxDelay: 3_600)],
                           callbackQueue: .immediate, firingFunction: .session(session, clock: .immediate))
        #expect(try await withTimeout(5) { try await call.response() }.data == Data("ok".utf8))
        #expect(session.requests.count == 3)
    }
}
