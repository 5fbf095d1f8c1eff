import Foundation
import Testing
import SalvoTesting
@_spi(Transport) @testable import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `call.events()` over a scripted streaming session: connection, reconnection, when it stops.
@Suite(.leavesNoSpillFiles) struct ServerSentEventsTests {
    typealias Step = ScriptedStreamSession.Step

    private func call(
        _ session: ScriptedStreamSession,
        endpoint: Endpoint = .get("/feed"),
        server: ServerConfig = ServerConfig(host: "events.example"),
        actions: [any NetworkAction] = [],
        firingClock: NetworkClock = .immediate
    ) -> NetCall {
        NetCall(server: server, endpoint: endpoint, actions: actions, firingFunction: .session(session, clock: firingClock))
    }

    private static let immediately = ReconnectionPolicy(clock: .immediate)
    private static let noContent: [Step] = [.head(status: 204)]

    // MARK: - Connecting

    @Test func everyConnectionAsksForAnEventStream() async throws {
        let session = ScriptedStreamSession([.events("id: 1\ndata: a\n\n"), Self.noContent])
        _ = try await readAll(call(session).events(reconnection: Self.immediately))
        for request in session.requests {
            #expect(request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
            #expect(request.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
        }
        #expect(session.requests.first?.value(forHTTPHeaderField: "Last-Event-ID") == nil)
    }

    @Test func aSavedEventIDIsSentOnTheFirstConnection() async throws {
        let session = ScriptedStreamSession([Self.noContent])
        let endpoint = Endpoint.get("/feed", headers: ["Last-Event-ID": "stale"])
        _ = try await readAll(call(session, endpoint: endpoint).events(resumingAfter: "41"))
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == ["41"])
    }

    @Test func theEndpointsLastEventIDIsWhereTheStreamStarts() async throws {
        let session = ScriptedStreamSession([.events("id\ndata: a\n\n"), Self.noContent])
        let endpoint = Endpoint.get("/feed", headers: ["Last-Event-ID": "9"])
        _ = try await readAll(call(session, endpoint: endpoint).events(reconnection: Self.immediately))
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == ["9", nil], "an empty id: resets it")
    }

    @Test func noContentEndsTheStreamWithoutAnError() async throws {
        let session = ScriptedStreamSession([Self.noContent])
        let (events, error) = try await readAll(call(session).events())
        #expect(events.isEmpty)
        #expect(error == nil)
        #expect(session.requests.count == 1)
    }

    @Test func onlyBlocksWithDataAreHandedOut() async throws {
        let body = "\u{FEFF}: welcome\n\nevent: ping\n\nid: 3\n\ndata\n\nevent: tick\ndata: 1\ndata: 2\n\n"
        let session = ScriptedStreamSession([.events(body), Self.noContent])
        let (events, _) = try await readAll(call(session).events(reconnection: Self.immediately))
        #expect(events == [
            ServerSentEvent(data: "", id: "3"),
            ServerSentEvent(event: "tick", data: "1\n2", id: "3"),
        ])
    }

    // MARK: - Refusals

    @Test func aStatusOutside2xxEndsTheStreamWithoutReconnecting() async throws {
        let session = ScriptedStreamSession([[.head(status: 500), .text("database down"), .end]])
        let (events, error) = try await readAll(call(session).events(reconnection: Self.immediately))
        #expect(events.isEmpty)
        #expect(error?.statusCode == 500)
        #expect(error?.responseBody == Data("database down".utf8))
        #expect(session.requests.count == 1)
    }

    @Test func anAnswerThatIsNoEventStreamIsRefusedWithItsBody() async throws {
        let session = ScriptedStreamSession([
            [.head(status: 200, headers: ["Content-Type": "application/json"]), .text(#"{"error": "wrong door"}"#), .end],
        ])
        let (_, error) = try await readAll(call(session).events(reconnection: Self.immediately))
        guard case .unacceptableResponse(let problem) = error else {
            Issue.record("expected .unacceptableResponse, got \(String(describing: error))")
            return
        }
        #expect(problem.reason.contains("text/event-stream"))
        #expect(problem.reason.contains("application/json"))
        #expect(problem.statusCode == 200)
        #expect(problem.body == Data(#"{"error": "wrong door"}"#.utf8))
        #expect(session.requests.count == 1)
    }

    @Test func aLineOverTheLimitEndsTheStreamAndItsConnection() async throws {
        let session = ScriptedStreamSession([[.eventStreamHead, .text("data: " + String(repeating: "a", count: 100)), .hang]])
        let (_, error) = try await readAll(call(session).events(reconnection: Self.immediately, maximumLineLength: 64))
        guard case .unacceptableResponse(let problem) = error else {
            Issue.record("expected .unacceptableResponse, got \(String(describing: error))")
            return
        }
        #expect(problem.reason.contains("64"))
        #expect(session.requests.count == 1, "a server that sent it once would send it again")
        #expect(await eventually { session.cancellations == 1 })
    }

    // MARK: - Reconnecting

    @Test func theEndOfTheBodyReconnectsWithTheLastEventID() async throws {
        let session = ScriptedStreamSession([.events("id: 1\ndata: a\n\nid: 2\ndata: b\n\n"), .events("id: 3\ndata: c\n\n"), Self.noContent])
        let (events, error) = try await readAll(call(session).events(reconnection: Self.immediately))
        #expect(events.map(\.data) == ["a", "b", "c"])
        #expect(error == nil)
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "2", "3"])
    }

    @Test func aDroppedConnectionResumesWithoutTheEventItCut() async throws {
        let session = ScriptedStreamSession([
            [.eventStreamHead, .text("id: 1\ndata: a\n\nid: 2\nda"), .text("ta: cut"), .fail(.networkConnectionLost)],
            .events("id: 2\ndata: b\n\n"),
            Self.noContent,
        ])
        let (events, error) = try await readAll(call(session).events(reconnection: Self.immediately))
        #expect(events == [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "2")])
        #expect(error == nil)
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "1", "2"])
    }

    @Test func anEmptyIDStopsSendingLastEventID() async throws {
        let session = ScriptedStreamSession([.events("id: 5\ndata: a\n\nid\ndata: b\n\n"), Self.noContent])
        let (events, _) = try await readAll(call(session).events(reconnection: Self.immediately))
        #expect(events.map(\.id) == ["5", nil])
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, nil])
    }

    @Test func theServersRetryTimeIsWaitedBeforeEachReconnection() async throws {
        let time = TestClock()
        let session = ScriptedStreamSession([.events("retry: 7000\n\ndata: a\n\n"), .events("data: b\n\n"), Self.noContent])
        let events = call(session).events(reconnection: ReconnectionPolicy(jitter: 0, clock: time.clock))
        let reading = Task { try await readAll(events) }

        #expect(await time.waitForSleepers(1))
        #expect(time.sleeps == [7])
        time.advance(by: 6)
        #expect(session.requests.count == 1, "not before the reconnection time")
        time.advance(by: 1)
        #expect(await time.waitForSleepers(1))
        #expect(session.requests.count == 2)
        #expect(time.sleeps == [7, 7], "the retry time outlives the connection that set it, and is not doubled after a connection that delivered an event")
        time.advance(by: 7)

        let (received, error) = try await reading.value
        #expect(received.map(\.data) == ["a", "b"])
        #expect(error == nil)
    }

    @Test func withoutRetryTheStreamWaitsThePolicysDelay() async throws {
        let time = RecordingClock()
        let session = ScriptedStreamSession([.events("data: a\n\n"), Self.noContent])
        _ = try await readAll(call(session).events(reconnection: ReconnectionPolicy(clock: time.clock)))
        #expect(time.waits == [3])
        _ = try await readAll(call(ScriptedStreamSession([.events("data: a\n\n"), Self.noContent]))
            .events(reconnection: ReconnectionPolicy(delay: 0.25, clock: time.clock)))
        #expect(time.waits == [3, 0.25])
    }

    @Test func connectionsThatKeepFailingWaitLongerEachTimeUpToTheMaximum() async throws {
        let time = RecordingClock()
        let session = ScriptedStreamSession { _, _ in [.fail(.cannotConnectToHost)] }
        let policy = ReconnectionPolicy(maximumDelay: 20, jitter: 0, maximumFailures: 5, clock: time.clock)
        let (_, error) = try await readAll(call(session).events(reconnection: policy))
        #expect(error != nil)
        #expect(time.waits == [3, 6, 12, 20, 20])
    }

    /// Connections that deliver no event (heartbeat comments only) back off; the second stays
    /// open for the reset interval, so the doubling starts over after it.
    @Test func aConnectionThatStayedOpenStartsTheBackoffOver() async throws {
        let time = TestClock()
        let session = ScriptedStreamSession([.events(": a\n\n"), .events(": b\n\n"), .events(": c\n\n"), .events(": d\n\n"), Self.noContent])
        let activity = call(session).events(reconnection: ReconnectionPolicy(jitter: 0, backoffResetInterval: 60, clock: time.clock)).activity
        let reading = Task {
            var comments: [String] = []
            for try await next in activity {
                guard case .comment(let text) = next else { continue }
                comments.append(text)
                if text == "b" { time.advance(by: 60) }
            }
            return comments
        }
        for wait in [3.0, 3, 6, 12] {
            #expect(await time.waitForSleepers(1))
            time.advance(by: wait)
        }
        #expect(try await reading.value == ["a", "b", "c", "d"])
        #expect(time.sleeps == [3, 3, 6, 12], "3, 6, 12, 24 without the lasting connection")
    }

    /// Connections that opened and delivered events, then dropped or ended: each reconnection
    /// waits the server's `retry:` exactly, whatever the jitter would draw (WHATWG: extra waiting
    /// only after a failed attempt). Before the fix: 0.7, then up to 1.4, 2.8, 5.6.
    @Test(arguments: [0.0, 0.5, 0.99])
    func aConnectionThatDeliveredEventsIsFollowedByTheServersRetryExactly(random: Double) async throws {
        let time = TestClock()
        let dropped: (String) -> [Step] = { [.eventStreamHead, .text($0), .fail(.networkConnectionLost)] }
        let session = ScriptedStreamSession([dropped("retry: 700\ndata: a\n\n"), dropped("data: b\n\n"), dropped("data: c\n\n"), .events("data: d\n\n"), Self.noContent])
        var policy = ReconnectionPolicy(clock: time.clock)
        policy.randomFraction = { random }
        let events = call(session).events(reconnection: policy)
        let reading = Task { try await readAll(events) }
        for _ in 0..<4 {
            #expect(await time.waitForSleepers(1))
            time.advance(by: try #require(time.sleeps.last))
        }
        let (received, error) = try await reading.value
        #expect(received.map(\.data) == ["a", "b", "c", "d"])
        #expect(error == nil)
        #expect(time.sleeps == [0.7, 0.7, 0.7, 0.7])
    }

    /// Failed attempts after a connection that worked back off from the reconnection time again.
    @Test func failuresAfterAConnectionThatWorkedBackOffFromTheReconnectionTime() async throws {
        let time = RecordingClock()
        let session = ScriptedStreamSession([
            [.eventStreamHead, .text("retry: 700\ndata: a\n\n"), .fail(.networkConnectionLost)],
            [.fail(.cannotConnectToHost)], [.fail(.cannotConnectToHost)],
            .events("data: b\n\n"), [.fail(.cannotConnectToHost)], Self.noContent,
        ])
        let (received, error) = try await readAll(call(session).events(reconnection: ReconnectionPolicy(jitter: 0, clock: time.clock)))
        #expect(received.map(\.data) == ["a", "b"])
        #expect(error == nil)
        #expect(time.waits == [0.7, 1.4, 2.8, 0.7, 1.4])
    }

    @Test func backedOffWaitsAreJitteredButNeverShorterThanTheReconnectionTime() async throws {
        let time = RecordingClock()
        let session = ScriptedStreamSession { _, _ in [.fail(.cannotConnectToHost)] }
        var policy = ReconnectionPolicy(jitter: 0.5, maximumFailures: 3, clock: time.clock)
        policy.randomFraction = { 1 }
        _ = try await readAll(call(session).events(reconnection: policy))
        #expect(time.waits == [3, 3, 6], "3, then 6 and 12 less half")
    }

    @Test func aSilentConnectionIsDroppedAfterTheIdleTimeoutAndResumed() async throws {
        let time = TestClock()
        let session = ScriptedStreamSession([[.eventStreamHead, .text("id: 1\ndata: a\n\n"), .hang], .events("id: 2\ndata: b\n\n"), Self.noContent])
        let events = call(session).events(reconnection: ReconnectionPolicy(jitter: 0, idleTimeout: 10, clock: time.clock))
        let reading = Task { try await readAll(events) }
        #expect(await time.waitForSleepers(1))
        time.advance(by: 9.5)
        #expect(session.cancellations == 0, "not before the idle timeout")
        time.advance(by: 0.5)
        #expect(await eventually { session.cancellations == 1 })
        #expect(await time.waitForSleepers(1))
        time.advance(by: 3)
        // The second connection delivers its event and ends at once: its own idle watch stops, and
        // the reconnection time is waited again, not a backed-off one (it worked).
        #expect(await eventually { time.sleeps.filter { $0 == 3 }.count == 2 && time.sleeperCount == 1 })
        #expect(!time.sleeps.contains(6), "no backed-off wait: \(time.sleeps)")
        time.advance(by: 3)
        let (received, error) = try await reading.value
        #expect(received.map(\.data) == ["a", "b"])
        #expect(error == nil)
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "1", "2"])
    }

    @Test func aConnectionSilentBeforeItsHeadCountsAsAFailure() async throws {
        let time = TestClock()
        let session = ScriptedStreamSession { _, _ in [.hang] }
        let events = call(session).events(reconnection: ReconnectionPolicy(idleTimeout: 5, maximumFailures: 0, clock: time.clock))
        let reading = Task { try await readAll(events) }
        #expect(await time.waitForSleepers(1))
        time.advance(by: 5)
        let (received, error) = try await reading.value
        #expect(received.isEmpty)
        guard case .transport(let urlError) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .timedOut)
        #expect(urlError.localizedDescription.contains("idleTimeout"))
    }

    /// `.immediate` never waits, so its idle timeout passes at once rather than spinning on real time.
    @Test func onAnImmediateClockTheIdleTimeoutPassesAtOnce() async throws {
        let session = ScriptedStreamSession { _, _ in [.hang] }
        let events = call(session).events(reconnection: ReconnectionPolicy(idleTimeout: 3_600, maximumFailures: 1, clock: .immediate))
        let (received, error) = try await readAll(events, within: 5)
        #expect(received.isEmpty)
        #expect(error?.isCancelled == false)
        #expect(session.requests.count == 2)
    }

    @Test func theStreamGivesUpAfterTooManyFailuresInARow() async throws {
        let session = ScriptedStreamSession { _, _ in [.fail(.cannotConnectToHost)] }
        let policy = ReconnectionPolicy(maximumFailures: 2, clock: .immediate)
        let (events, error) = try await readAll(call(session).events(reconnection: policy))
        #expect(events.isEmpty)
        guard case .transport(let urlError) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .cannotConnectToHost)
        #expect(session.requests.count == 3, "the first connection and 2 reconnections")
    }

    @Test func anEventResetsTheFailureCount() async throws {
        let session = ScriptedStreamSession([
            [.fail(.cannotConnectToHost)],
            [.fail(.timedOut)],
            [.eventStreamHead, .text("id: 1\ndata: a\n\n"), .fail(.networkConnectionLost)],
            [.fail(.cannotConnectToHost)],
            [.eventStreamHead, .fail(.networkConnectionLost)],
            Self.noContent,
        ])
        let policy = ReconnectionPolicy(maximumFailures: 2, clock: .immediate)
        let (events, error) = try await readAll(call(session).events(reconnection: policy))
        #expect(events.map(\.data) == ["a"])
        #expect(error == nil)
        #expect(session.requests.count == 6)
    }

    @Test func aConnectionThatDeliveredEventsIsResumedWithoutCountingAsFailed() async throws {
        let session = ScriptedStreamSession([
            [.eventStreamHead, .text("id: 1\ndata: a\n\n"), .fail(.networkConnectionLost)],
            .events("id: 2\ndata: b\n\n"),
            Self.noContent,
        ])
        let policy = ReconnectionPolicy(maximumFailures: 0, clock: .immediate)
        let (events, error) = try await readAll(call(session).events(reconnection: policy))
        #expect(events.map(\.data) == ["a", "b"])
        #expect(error == nil)
    }

    @Test func aCleanEndIsNoFailure() async throws {
        let session = ScriptedStreamSession([.events(": nothing yet\n"), .events(""), .events("data: a\n\n"), Self.noContent])
        let policy = ReconnectionPolicy(maximumFailures: 0, clock: .immediate)
        let (events, error) = try await readAll(call(session).events(reconnection: policy))
        #expect(events.map(\.data) == ["a"])
        #expect(error == nil)
    }

    @Test func aPOSTStreamEndsWithItsBody() async throws {
        let session = ScriptedStreamSession([.events("data: answer\n\n")])
        let (events, error) = try await readAll(call(session, endpoint: .post("/chat")).events())
        #expect(events.map(\.data) == ["answer"])
        #expect(error == nil)
        #expect(session.requests.count == 1, "a POST is never sent twice")
    }

    @Test func withoutReconnectionADroppedConnectionThrows() async throws {
        let session = ScriptedStreamSession([[.eventStreamHead, .text("data: a\n\n"), .fail(.networkConnectionLost)]])
        let (events, error) = try await readAll(call(session).events(reconnection: .never))
        #expect(events.map(\.data) == ["a"])
        guard case .transport(let urlError) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
        #expect(session.requests.count == 1)
    }

    @Test func theCallsActionsRunForEveryConnection() async throws {
        let session = ScriptedStreamSession([
            [.head(status: 503, headers: ["Retry-After": "2"]), .text("busy"), .end],
            .events("data: a\n\n"),
            Self.noContent,
        ])
        let firingTime = RecordingClock()
        let reconnectionTime = RecordingClock()
        let stream = call(session, actions: [RetryAction(maxAttempts: 2), StampAction()], firingClock: firingTime.clock)
            .events(reconnection: ReconnectionPolicy(clock: reconnectionTime.clock))
        let (events, error) = try await readAll(stream)
        #expect(events.map(\.data) == ["a"])
        #expect(error == nil)
        #expect(firingTime.waits == [2], "the retry policy honoured Retry-After within the connection")
        #expect(reconnectionTime.waits == [3])
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "X-Stamp") } == ["stamped", "stamped", "stamped"])
    }

    // MARK: - Stopping

    /// The connection hangs before its head, or after an event (with actions, the call runs
    /// through the attempt loop; without, straight to the session).
    static let hangingConnections: [[Step]] = [[.hang], [.eventStreamHead, .text("data: a\n\n"), .hang]]

    @Test(arguments: hangingConnections, [false, true])
    func cancellingTheTaskCancelsTheConnection(_ connection: [Step], withActions: Bool) async throws {
        let session = ScriptedStreamSession([connection])
        let events = call(session, actions: withActions ? [StampAction()] : []).events()
        let reading = Task { await read(events) }
        #expect(await eventually { session.requests.count == 1 })
        reading.cancel()
        let (_, error) = try #require(await finished(reading))
        #expect(error?.isCancelled == true)
        #expect(await eventually { session.cancellations == 1 })
    }

    @Test func cancellingTheWaitBeforeAReconnectionStopsTheStream() async throws {
        let time = TestClock()
        let session = ScriptedStreamSession([.events("data: a\n\n")])
        let events = call(session).events(reconnection: ReconnectionPolicy(clock: time.clock))
        let reading = Task { await read(events) }
        #expect(await time.waitForSleepers(1))
        reading.cancel()
        let (received, error) = try #require(await finished(reading))
        #expect(received.map(\.data) == ["a"])
        #expect(error?.isCancelled == true)
        #expect(session.requests.count == 1)
    }

    @Test func breakingOutOfTheLoopCancelsTheConnection() async throws {
        let session = ScriptedStreamSession([[.eventStreamHead, .text("data: a\n\ndata: b\n\n"), .hang]])
        for try await event in call(session).events() {
            #expect(event.data == "a")
            break
        }
        #expect(await eventually { session.cancellations == 1 })
        #expect(session.requests.count == 1)
    }

    // MARK: - Decoding

    private struct Tick: Decodable, Equatable {
        let tickCount: Int
    }

    @Test func decodedEventsUseTheServersDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let session = ScriptedStreamSession([.events("data: {\"tick_count\": 1}\n\nevent: other\ndata: {\"tick_count\": 2}\n\n"), Self.noContent])
        let server = ServerConfig(host: "events.example", decoder: decoder)
        let (ticks, error) = try await readAll(call(session, server: server).events(decoding: Tick.self, reconnection: Self.immediately))
        #expect(ticks == [Tick(tickCount: 1), Tick(tickCount: 2)])
        #expect(error == nil)
    }

    @Test func anEventThatDoesNotDecodeEndsTheStream() async throws {
        let session = ScriptedStreamSession([[.eventStreamHead, .text("data: {\"tick_count\": 1}\n\ndata: [DONE]\n\n"), .hang]])
        let (ticks, error) = try await readAll(call(session).events(decoding: Tick.self, decoder: JSONDecoder()))
        #expect(ticks.isEmpty, "the default decoder does not convert snake case")
        guard case .decoding(let failure) = error else {
            Issue.record("expected .decoding, got \(String(describing: error))")
            return
        }
        #expect(failure.body == Data("{\"tick_count\": 1}".utf8))
        #expect(await eventually { session.cancellations == 1 })
    }
}

/// Marks every request it prepares with `X-Stamp: stamped`.
private struct StampAction: NetworkAction {
    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        var stamped = request
        stamped.setValue("stamped", forHTTPHeaderField: "X-Stamp")
        return stamped
    }
}
