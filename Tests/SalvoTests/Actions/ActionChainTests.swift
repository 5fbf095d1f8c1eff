import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// An action that writes what it sees to a transcript and decides with a closure.
private struct Probe: NetworkAction {
    let name: String
    let transcript: Transcript
    var decision: @Sendable (AttemptOutcome, Int) -> ActionDecision = { _, _ in .proceed }

    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        transcript.append("prepare \(name)")
        var request = request
        let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," } ?? ""
        request.setValue(trail + name, forHTTPHeaderField: "X-Trail")
        return request
    }

    func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        let error = outcome.error.map { " error=\($0.isCancelled ? "cancelled" : "set")" } ?? ""
        transcript.append("decide \(name) attempt=\(attempt)\(error)")
        return decision(outcome, attempt)
    }
}

/// A reference-type action, to check that one instance listed twice runs once.
private final class CountingAction: NetworkAction {
    let prepares = Locked(0)
    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        prepares.withLock { $0 += 1 }
        return request
    }
}

/// An action that says it has nothing to do; it would fail the call if it ran.
private struct InactiveAction: NetworkAction {
    func isActive(for call: NetCall) -> Bool { false }

    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        throw NetworkError.invalidRequest(RequestProblem(.body, "an inactive action ran"))
    }
}

@Suite struct ActionChainTests {
    private let server = ServerConfig(scheme: "http", host: "api.test")

    private func call(_ session: ScriptedSession, server serverActions: [any NetworkAction], call callActions: [any NetworkAction]) -> NetCall {
        var server = server
        server.actions = serverActions
        return NetCall(server: server, endpoint: .get("/items"), actions: callActions, callbackQueue: .immediate, firingFunction: session.firingFunction)
    }

    @Test func prepareRunsServerActionsThenCallActionsEachGettingThePreviousOutput() async throws {
        let session = ScriptedSession(.status(200))
        let log = Transcript()
        let call = call(session, server: [Probe(name: "s1", transcript: log), Probe(name: "s2", transcript: log)],
                        call: [Probe(name: "c1", transcript: log)])
        _ = try await withTimeout { try await call.response() }
        #expect(session.requests.first?.value(forHTTPHeaderField: "X-Trail") == "s1,s2,c1")
        #expect(log.all.prefix(3) == ["prepare s1", "prepare s2", "prepare c1"])
    }

    @Test func decideRunsFromTheLastActionToTheFirst() async throws {
        let session = ScriptedSession(.status(200))
        let log = Transcript()
        let call = call(session, server: [Probe(name: "s1", transcript: log), Probe(name: "s2", transcript: log)],
                        call: [Probe(name: "c1", transcript: log)])
        _ = try await withTimeout { try await call.response() }
        #expect(log.all.suffix(3) == ["decide c1 attempt=1", "decide s2 attempt=1", "decide s1 attempt=1"])
    }

    @Test func failReplacesTheErrorAndOuterActionsSeeIt() async throws {
        let session = ScriptedSession(.status(200))
        let log = Transcript()
        let refusal = NetworkError.unacceptableResponse(ResponseProblem("not today"))
        let call = call(session, server: [Probe(name: "outer", transcript: log)],
                        call: [Probe(name: "inner", transcript: log) { _, _ in .fail(refusal) }])
        let result = await result(of: call)
        #expect(log.all.contains("decide outer attempt=1 error=set"))
        guard case .failure(.unacceptableResponse(let problem)) = result else {
            Issue.record("expected the refusal, got \(result)")
            return
        }
        #expect(problem.reason == "not today")
    }

    @Test func retryRunsEveryPrepareAgainAndCountsAttempts() async throws {
        let session = ScriptedSession(.status(503), .status(200))
        let log = Transcript()
        let token = Locked("old")
        let auth = AuthProbe(token: token)
        let retry = Probe(name: "retry", transcript: log) { outcome, _ in
            if outcome.statusCode == 503 {
                token.withLock { $0 = "new" }
                return .retry
            }
            return .proceed
        }
        let call = call(session, server: [retry, auth], call: [Probe(name: "c1", transcript: log)])
        let response = try await withTimeout { try await call.response() }
        #expect(response.statusCode == 200)
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer old", "Bearer new"])
        #expect(log.all.filter { $0.hasPrefix("decide retry") } == ["decide retry attempt=1", "decide retry attempt=2"])
        #expect(log.all.filter { $0 == "prepare c1" }.count == 2)
    }

    @Test func retryStopsTheChainSoOuterActionsDoNotSeeThatAttempt() async throws {
        let session = ScriptedSession(.status(503), .status(200))
        let log = Transcript()
        let call = call(session, server: [Probe(name: "outer", transcript: log)],
                        call: [Probe(name: "inner", transcript: log) { _, attempt in attempt == 1 ? .retry : .proceed }])
        _ = try await withTimeout { try await call.response() }
        #expect(log.all.filter { $0.hasPrefix("decide outer") } == ["decide outer attempt=2"])
    }

    @Test func throwingFromPrepareFailsTheCallWithoutSendingIt() async throws {
        struct NoSecret: Error {}
        let session = ScriptedSession(.status(200))
        let call = call(session, server: [ThrowingAction(error: NoSecret())], call: [])
        let result = await result(of: call)
        #expect(session.requests.count == 0)
        guard case .failure(.refusedByAction(let error)) = result else {
            Issue.record("expected refusedByAction, got \(result)")
            return
        }
        #expect(error is NoSecret)
    }

    @Test func aNetworkErrorThrownFromPrepareReachesTheCallerUnchanged() async throws {
        let session = ScriptedSession(.status(200))
        let refusal = NetworkError.invalidRequest(RequestProblem(.header, "no token"))
        let call = call(session, server: [], call: [ThrowingAction(error: refusal)])
        let result = await result(of: call)
        guard case .failure(.invalidRequest(let problem)) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(problem == RequestProblem(.header, "no token"))
    }

    @Test func oneInstanceListedOnServerAndCallRunsOncePerAttempt() async throws {
        let session = ScriptedSession(.status(200))
        let shared = CountingAction()
        let call = call(session, server: [shared], call: [shared])
        _ = try await withTimeout { try await call.response() }
        #expect(shared.prepares.withLock { $0 } == 1)
    }

    @Test func aValueTypeListedTwiceRunsTwice() async throws {
        let session = ScriptedSession(.status(200))
        let log = Transcript()
        let probe = Probe(name: "p", transcript: log)
        let call = call(session, server: [probe], call: [probe])
        _ = try await withTimeout { try await call.response() }
        #expect(session.requests.first?.value(forHTTPHeaderField: "X-Trail") == "p,p")
    }

    @Test func actionsRunOncePerAttemptWithTheCompletionAPI() async throws {
        let session = ScriptedSession(.status(200))
        let counter = CountingAction()
        let done = Transcript()
        let delivered = Signal()
        var call = call(session, server: [counter], call: [])
        call.responder = NetworkResponder(dataHandler: { _ in done.append("data"); delivered.fire() })
        call.fire()
        try await delivered.wait()
        #expect(counter.prepares.withLock { $0 } == 1)
        #expect(session.requests.count == 1)
        #expect(done.all == ["data"])
    }

    @Test func cancellingDuringARetryDelayStopsFurtherAttempts() async throws {
        let session = ScriptedSession(.status(503))
        let retryDecided = Signal()
        let retry = Probe(name: "retry", transcript: Transcript()) { _, _ in
            retryDecided.fire()
            return .retryAfter(30)
        }
        let errors = Transcript()
        var call = call(session, server: [retry], call: [])
        call.responder = NetworkResponder(errorHandler: { errors.append($0.isCancelled ? "cancelled" : "other") })
        let task = call.fire()
        try await retryDecided.wait()
        task.cancel()
        #expect(errors.all == ["cancelled"])
        // "No further attempt" has no event to await: give a wrongly scheduled retry time to show.
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(session.requests.count == 1)
    }

    /// Logging and metrics actions count a cancelled call: the attempt in flight when the task
    /// is cancelled is handed to the actions as `.cancelled`, and what they decide changes nothing.
    @Test func theActionsSeeTheAttemptInFlightWhenTheCallIsCancelled() async throws {
        let time = TestClock()
        let log = Transcript()
        let retryingProbe = Probe(name: "p", transcript: log) { _, _ in .retry }
        var server = server
        server.actions = [retryingProbe]
        let call = NetCall(
            server: server, endpoint: .get("/items"), callbackQueue: .immediate,
            firingFunction: .mock(.text("late").delayed(by: 60), clock: time.clock)
        )
        let task = call.fire()
        #expect(await time.waitForSleepers(1, timeout: 10))
        task.cancel()
        #expect(await eventually { log.all.contains("decide p attempt=1 error=cancelled") }, "\(log.all)")
        #expect(log.all == ["prepare p", "decide p attempt=1 error=cancelled"], "no attempt follows the decision")
        #expect(task.isCancelled)
    }

    @Test func inactiveActionsAreLeftOutAndTheCallStaysOnTheSynchronousPath() {
        let delivered = Transcript()
        var server = server
        server.actions = [InactiveAction()]
        let call = NetCall(server: server, endpoint: .get("/items"),
                           responder: NetworkResponder(dataHandler: { _ in delivered.append("data") }),
                           actions: [InactiveAction()], callbackQueue: .immediate, firingFunction: .mock(.text("ok")))
        call.fire()
        // Delivered before fire() returns: no attempt loop, no task hop.
        #expect(delivered.all == ["data"])
    }

    @Test func mockFiringRunsTheSameChain() async throws {
        let log = Transcript()
        var server = server
        server.actions = [Probe(name: "s1", transcript: log)]
        let call = NetCall(server: server, endpoint: .get("/items"), actions: [Probe(name: "c1", transcript: log)],
                           callbackQueue: .immediate, firingFunction: .mock(.text("ok")))
        _ = try await withTimeout { try await call.response() }
        #expect(log.all == ["prepare s1", "prepare c1", "decide c1 attempt=1", "decide s1 attempt=1"])
    }

    @Test func everyAttemptRecordsHowLongItTook() async throws {
        let session = ScriptedSession(.status(200))
        let seen = Locked<TimeInterval?>(nil)
        let call = call(session, server: [Probe(name: "p", transcript: Transcript()) { outcome, _ in
            seen.withLock { $0 = outcome.duration }
            return .proceed
        }], call: [])
        _ = try await withTimeout { try await call.response() }
        let duration = try #require(seen.withLock { $0 })
        #expect(duration >= 0 && duration < 5)
    }
}

/// Adds `Authorization: Bearer <token>` from a shared value, read again on every attempt.
private struct AuthProbe: NetworkAction {
    let token: Locked<String>
    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        var request = request
        request.setValue("Bearer " + token.withLock { $0 }, forHTTPHeaderField: "Authorization")
        return request
    }
}

/// Refuses every request.
private struct ThrowingAction: NetworkAction {
    let error: any Error
    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest { throw error }
}

