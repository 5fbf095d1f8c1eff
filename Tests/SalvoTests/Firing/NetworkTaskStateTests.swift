import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// The firing's state as a value: events in (one method each), actions out, no I/O; and the one object a session reports to.
@Suite struct NetworkTaskStateTests {
    static let url = URL(string: "https://api.example.com/items")!

    static func state(streaming: Bool = false, awaiting: Bool = false) -> NetworkTask.State {
        NetworkTask.State(
            request: URLRequest(url: url), streamsBody: streaming, reportsProgress: false,
            parksOutcome: awaiting, handsOverAfterHandlers: false, meter: nil
        )
    }

    /// The outcome a `.finish` action carries; fails the test for any other action.
    static func finished(_ action: NetworkTask.State.Action) -> NetworkTask.Outcome? {
        guard case .finish(let outcome, _, _, _, _, _) = action else {
            Issue.record("expected .finish, got \(action)")
            return nil
        }
        return outcome
    }

    @Test func aCollectedBodyEndsAsOneOutcomeWithItsHeadAndBody() throws {
        var state = Self.state()
        let head = ResponseHead(statusCode: 200, url: Self.url)
        guard case .none = state.received(head, attempt: 1) else { Issue.record("a collected head is kept"); return }
        guard case .none = state.received(Data("ab".utf8), attempt: 1) else { Issue.record("a collected chunk is kept"); return }
        _ = state.received(Data("c".utf8), attempt: 1)
        let outcome = try #require(Self.finished(state.ended(nil, nil, nil, attempt: 1)))
        #expect(outcome.data == Data("abc".utf8))
        #expect(outcome.head?.statusCode == 200)
        #expect(state.isFinished)
    }

    @Test func theWholeExchangeAtOnceIsOneEventAndOneOutcome() throws {
        var state = Self.state()
        let head = ResponseHead(statusCode: 404, url: Self.url)
        let outcome = try #require(Self.finished(state.ended(head, Data("nope".utf8), nil, attempt: 1)))
        #expect(outcome.data == Data("nope".utf8))
        #expect(outcome.head?.statusCode == 404)
    }

    /// The outcome is classified once, where it is made: the dispatch, the stream's end and the
    /// finish handlers read its failure instead of asking the head again.
    @Test func aStatusOutside2xxIsClassifiedWhereTheOutcomeIsMade() throws {
        var state = Self.state()
        let outcome = try #require(Self.finished(state.ended(ResponseHead(statusCode: 503, url: Self.url), Data("busy".utf8), nil, attempt: 1)))
        guard case .serverStatus(let problem)? = outcome.failure else { Issue.record("a 503 is .serverStatus, got \(String(describing: outcome.failure))"); return }
        #expect(problem.statusCode == 503)
        #expect(problem.body == Data("busy".utf8))
        var succeeded = Self.state()
        let success = try #require(Self.finished(succeeded.ended(ResponseHead(statusCode: 204, url: Self.url), nil, nil, attempt: 1)))
        #expect(success.failure == nil)
        #expect(success.data == Data())
    }

    @Test func aStreamed2xxHeadAndItsChunksGoOutAsTheyArrive() throws {
        var state = Self.state(streaming: true)
        let head = ResponseHead(statusCode: 200, url: Self.url)
        guard case .report(let reported?, nil, nil) = state.received(head, attempt: 1) else { Issue.record("the head goes out"); return }
        #expect(reported.statusCode == 200)
        guard case .report(nil, let chunk?, nil) = state.received(Data("a".utf8), attempt: 1) else { Issue.record("the chunk goes out"); return }
        #expect(chunk == Data("a".utf8))
        guard case .finish(let outcome, _, let hasStreamedHead, _, _, _) = state.ended(nil, nil, nil, attempt: 1) else {
            Issue.record("the end finishes"); return
        }
        #expect(hasStreamedHead)
        #expect(outcome.data == nil)
    }

    @Test func aStreamedHeadOutside2xxIsCollectedForTheError() throws {
        var state = Self.state(streaming: true)
        guard case .none = state.received(ResponseHead(statusCode: 500, url: Self.url), attempt: 1) else { Issue.record("kept"); return }
        guard case .none = state.received(Data("oops".utf8), attempt: 1) else { Issue.record("kept"); return }
        let outcome = try #require(Self.finished(state.ended(nil, nil, nil, attempt: 1)))
        #expect(outcome.data == Data("oops".utf8))
    }

    @Test func cancelFinishesOnceAndStopsTheSessionTask() throws {
        var state = Self.state()
        let stopped = StopCount()
        _ = state.started(stopped)
        guard case .finish(let outcome, let stopping, _, _, _, _) = state.cancel() else { Issue.record("cancel finishes"); return }
        guard case .cancelled? = outcome.failure else { Issue.record("cancelled"); return }
        #expect(stopping.count == 1)
        guard case .none = state.cancel() else { Issue.record("a second cancel does nothing"); return }
        guard case .none = state.ended(nil, nil, nil, attempt: 1) else { Issue.record("a late end is dropped"); return }
        #expect(state.isCancelled)
    }

    @Test func aSessionTaskStartedAfterCancelIsCancelledAtOnce() {
        var state = Self.state()
        _ = state.cancel()
        guard case .cancelExchange = state.started(StopCount()) else { Issue.record("cancelled at once"); return }
    }

    @Test func aCallerAwaitingDeliveryBeforeTheOutcomeIsResumedWithTheFinish() async {
        var state = Self.state()
        var delivered = 0
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            guard case .none = state.awaitedDelivery(continuation) else { Issue.record("parks until the outcome is made"); return }
            guard case .finish(_, _, _, _, _, let delivering) = state.cancel() else { Issue.record("cancel finishes"); return }
            delivered = delivering.count
            delivering.forEach { $0.resume() }
        }
        #expect(delivered == 1)
    }

    @MainActor @Test func deliveredReturnsAfterTheRespondersHandlersRanAskedBeforeOrAfter() async {
        let log = MainActorLog()
        var call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/x"), firingFunction: .mock(.text("hi")))
        call.responder = .onMainActor(dataHandler: { data in log.append(String(decoding: data, as: UTF8.self)) })

        let task = call.fire()
        await task.delivered()
        #expect(await log.entries(0) == ["hi"])
        await task.delivered()   // asked again, after delivery: returns
        #expect(task.isFinished)
    }

    @Test func anAwaitedOutcomeMadeFirstIsTakenWithoutParking() throws {
        var state = Self.state(awaiting: true)
        guard case .finish(_, _, _, nil, _, _) = state.ended(ResponseHead(statusCode: 200, url: Self.url), Data("x".utf8), nil, attempt: 1) else {
            Issue.record("nobody is parked yet"); return
        }
        let taken = state.takeOutcome()
        let outcome = try #require(taken)
        #expect(try outcome.get().data == Data("x".utf8))
        #expect(state.takeOutcome() == nil)
    }

    // MARK: - The attempt loop's events

    /// The state of a call with actions: the attempt loop starts each attempt.
    static func loopState(streaming: Bool = false) -> NetworkTask.State {
        NetworkTask.State(
            request: nil, streamsBody: streaming, reportsProgress: false,
            parksOutcome: false, handsOverAfterHandlers: false, meter: nil
        )
    }

    /// What the state handed on to the attempt loop, as the loop's `nextOutcome()` takes it.
    static func handedOn(_ state: inout NetworkTask.State) async -> AttemptOutcome {
        await withCheckedContinuation { continuation in
            guard case .handOn(let loop, let outcome) = state.awaitedOutcome(continuation) else {
                Issue.record("nothing was handed on: the loop would wait")
                // Resume the parked loop (as cancelled) rather than hang the test.
                if case .finish(_, let stopping, _, _, _, _) = state.cancel() { stopping.forEach { $0.cancel() } }
                return
            }
            loop.resume(returning: outcome)
        }
    }

    /// Starts `attempt`, expecting the state to let the loop send it.
    static func start(_ attempt: Int, _ state: inout NetworkTask.State) {
        guard case .send = state.start(attempt, of: URLRequest(url: url), refusedWith: nil, meter: nil) else {
            Issue.record("attempt \(attempt) is sent")
            return
        }
    }

    /// One report of an exchange, as a session makes it.
    enum Report: String, CaseIterable {
        case head, chunk, sent, end

        func send(to state: inout NetworkTask.State, attempt: Int) -> NetworkTask.State.Action {
            switch self {
            case .head: state.received(ResponseHead(statusCode: 200, url: NetworkTaskStateTests.url), attempt: attempt)
            case .chunk: state.received(Data("late".utf8), attempt: attempt)
            case .sent: state.sent(10, of: 10, attempt: attempt)
            case .end: state.ended(nil, nil, URLError(.networkConnectionLost), attempt: attempt)
            }
        }
    }

    /// A retried exchange may still report after the next attempt started (it was stopped, not
    /// waited for): its reports change nothing, and attempt 2's outcome is attempt 2's alone.
    @Test(arguments: Report.allCases)
    func aLateReportOfAnEarlierAttemptIsDroppedOnceTheNextStarted(_ late: Report) async throws {
        var state = Self.loopState()
        Self.start(1, &state)
        _ = state.received(ResponseHead(statusCode: 503, url: Self.url), attempt: 1)
        _ = state.received(Data("busy".utf8), attempt: 1)
        _ = state.ended(nil, nil, nil, attempt: 1)
        let first = await Self.handedOn(&state)
        #expect(first.head?.statusCode == 503)
        #expect(first.data == Data("busy".utf8))
        guard case .retry(let delay, _) = state.decided(.retry(after: 2)) else { Issue.record("the loop backs off"); return }
        #expect(delay == 2)
        guard case .none = late.send(to: &state, attempt: 1) else { Issue.record("a late \(late) while backing off is dropped"); return }
        Self.start(2, &state)
        guard case .none = late.send(to: &state, attempt: 1) else { Issue.record("a late \(late) of attempt 1 is dropped"); return }
        _ = state.received(ResponseHead(statusCode: 200, url: Self.url), attempt: 2)
        _ = state.received(Data("ok".utf8), attempt: 2)
        _ = state.ended(nil, nil, nil, attempt: 2)
        let second = await Self.handedOn(&state)
        #expect(second.head?.statusCode == 200)
        #expect(second.data == Data("ok".utf8))
        #expect(second.error == nil)
        let outcome = try #require(Self.finished(state.decided(.deliver(nil))))
        #expect(outcome.failure == nil)
        #expect(outcome.data == Data("ok".utf8))
    }

    @Test func cancelDuringBackoffFinishesOnceWithCancelledAndStopsTheLoop() async throws {
        var state = Self.loopState()
        let loopTask = StopRecorder()
        _ = state.started(loopTask)   // the firing function's cancel handler for the loop's `Task`
        Self.start(1, &state)
        _ = state.received(ResponseHead(statusCode: 503, url: Self.url), attempt: 1)
        _ = state.ended(nil, nil, nil, attempt: 1)
        _ = await Self.handedOn(&state)
        guard case .retry = state.decided(.retry(after: 30)) else { Issue.record("the loop backs off"); return }
        guard case .finish(let outcome, let stopping, _, _, _, _) = state.cancel() else { Issue.record("cancel finishes"); return }
        guard case .cancelled? = outcome.failure else { Issue.record("finished with .cancelled, got \(String(describing: outcome.failure))"); return }
        stopping.forEach { $0.cancel() }
        #expect(loopTask.stops == 1, "the loop's task, sleeping out its backoff, is cancelled")
        guard case .none = state.cancel() else { Issue.record("a second cancel does nothing"); return }
        guard case .none = state.start(2, of: URLRequest(url: Self.url), refusedWith: nil, meter: nil) else {
            Issue.record("no attempt is sent after cancel"); return
        }
        let handed = await Self.handedOn(&state)
        guard case .cancelled? = handed.error else { Issue.record("the loop is handed the attempt as cancelled"); return }
        guard case .none = state.decided(.deliver(nil)) else { Issue.record("a late decision does nothing"); return }
    }

    /// The actions see the attempt a cancel interrupted (a logging or metrics action counts it).
    @Test func cancelWhileTheLoopWaitsHandsItTheAttemptAsCancelled() async {
        var state = Self.loopState()
        Self.start(1, &state)
        let handed: AttemptOutcome = await withCheckedContinuation { continuation in
            guard case .none = state.awaitedOutcome(continuation) else { Issue.record("the loop parks"); return }
            guard case .finish(_, let stopping, _, _, _, _) = state.cancel() else { Issue.record("cancel finishes"); return }
            stopping.forEach { $0.cancel() }
        }
        guard case .cancelled? = handed.error else { Issue.record("handed on as cancelled, got \(String(describing: handed.error))"); return }
        #expect(handed.request?.url == Self.url)
        guard case .none = state.decided(.retry(after: 0)) else { Issue.record("the actions' decision changes nothing"); return }
    }

    @Test func aDecidedStreamedHeadReleasesItsKeptChunksBeforeLiveOnes() async throws {
        var state = Self.loopState(streaming: true)
        Self.start(1, &state)
        let head = ResponseHead(statusCode: 200, url: Self.url)
        guard case .none = state.received(head, attempt: 1) else { Issue.record("a streamed head goes to the actions first"); return }
        let handed = await Self.handedOn(&state)
        #expect(handed.isStreamedHead)
        guard case .none = state.received(Data("a".utf8), attempt: 1) else { Issue.record("kept while the actions decide"); return }
        guard case .release(let released?, let kept) = state.decided(.streamBody) else { Issue.record("the head and kept chunks go out"); return }
        #expect(released.statusCode == 200)
        #expect(kept == Data("a".utf8))
        // A chunk arriving while the kept ones are delivered queues behind them.
        guard case .none = state.received(Data("b".utf8), attempt: 1) else { Issue.record("queued behind the kept chunks"); return }
        guard case .release(nil, let queued) = state.released() else { Issue.record("the releasing thread takes it next"); return }
        #expect(queued == Data("b".utf8))
        guard case .none = state.released() else { Issue.record("nothing left: chunks now go out as they arrive"); return }
        guard case .report(nil, let live?, _) = state.received(Data("c".utf8), attempt: 1) else { Issue.record("a live chunk goes out"); return }
        #expect(live == Data("c".utf8))
        guard case .finish(let outcome, _, let hasStreamedHead, _, _, _) = state.ended(nil, nil, nil, attempt: 1) else {
            Issue.record("the end finishes"); return
        }
        #expect(hasStreamedHead)
        #expect(outcome.failure == nil)
    }

    @Test func anEndWhileKeptChunksDrainFinishesAfterThem() async throws {
        var state = Self.loopState(streaming: true)
        Self.start(1, &state)
        _ = state.received(ResponseHead(statusCode: 200, url: Self.url), attempt: 1)
        _ = await Self.handedOn(&state)
        _ = state.received(Data("a".utf8), attempt: 1)
        guard case .none = state.ended(nil, nil, nil, attempt: 1) else { Issue.record("the end waits for the decision"); return }
        guard case .release(_, let kept) = state.decided(.streamBody) else { Issue.record("released"); return }
        #expect(kept == Data("a".utf8))
        guard case .finish(_, _, let hasStreamedHead, _, _, _) = state.released() else { Issue.record("then the end finishes"); return }
        #expect(hasStreamedHead)
    }

    @Test func anErrorDecidedOnAStreamedHeadFinishesWithItAndStopsTheExchange() async throws {
        var state = Self.loopState(streaming: true)
        Self.start(1, &state)
        let exchange = StopRecorder()
        _ = state.started(exchange, attempt: 1)
        _ = state.received(ResponseHead(statusCode: 200, url: Self.url), attempt: 1)
        _ = await Self.handedOn(&state)
        _ = state.received(Data("unwanted".utf8), attempt: 1)
        let refusal = NetworkError.refusedByAction(URLError(.cannotParseResponse))
        guard case .finish(let outcome, let stopping, let hasStreamedHead, _, _, _) = state.decided(.deliver(refusal)) else {
            Issue.record("the decision finishes"); return
        }
        guard case .refusedByAction? = outcome.failure else { Issue.record("the action's error, got \(String(describing: outcome.failure))"); return }
        #expect(outcome.data == nil)
        #expect(!hasStreamedHead, "the body receiver never had the head")
        stopping.forEach { $0.cancel() }
        #expect(exchange.stops == 1)
    }

    @Test func aRefusedAttemptIsHandedOnWithoutBeingSent() async throws {
        var state = Self.loopState()
        guard case .none = state.start(1, of: URLRequest(url: Self.url), refusedWith: .cancelled, meter: nil) else {
            Issue.record("nothing is sent"); return
        }
        let handed = await Self.handedOn(&state)
        guard case .cancelled? = handed.error else { Issue.record("the refusal is the outcome"); return }
        #expect(handed.duration == nil)
    }

    /// Before the task was the receiver, a session reported to an `Attempt` that went back to the task for each report.
    @Test func aSessionReportsToTheCallsTaskItself() async throws {
        let session = ReceiverCapture()
        var call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/items"))
        call.firingFunction = .session(session)
        let task = call.fire()
        let receiver = try #require(session.receiver)
        #expect(receiver as AnyObject === task)
    }
}

/// A session task that counts nothing but exists to be stopped.
private struct StopCount: NetworkSessionTask {
    func cancel() {}
}

/// A session task (or the loop's cancel handler) that counts how often it was stopped.
private final class StopRecorder: NetworkSessionTask {
    private let count = Locked(0)
    var stops: Int { count.withLock { $0 } }

    func cancel() { count.withLock { $0 += 1 } }
}

/// A session that keeps the receiver it was handed and answers at once.
private final class ReceiverCapture: NetworkSession {
    private let captured = Locked<(any ResponseReceiver)?>(nil)
    var receiver: (any ResponseReceiver)? { captured.withLock { $0 } }

    func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        captured.withLock { $0 = receiver }
        receiver.finish(with: ResponseHead(statusCode: 204, url: request.url ?? NetworkTaskStateTests.url), body: Data())
        return FinishedSessionTask()
    }
}
