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
        guard case .none = state.received(head) else { Issue.record("a collected head is kept"); return }
        guard case .none = state.received(Data("ab".utf8)) else { Issue.record("a collected chunk is kept"); return }
        _ = state.received(Data("c".utf8))
        let outcome = try #require(Self.finished(state.ended(nil, nil, nil)))
        #expect(outcome.data == Data("abc".utf8))
        #expect(outcome.head?.statusCode == 200)
        #expect(state.isFinished)
    }

    @Test func theWholeExchangeAtOnceIsOneEventAndOneOutcome() throws {
        var state = Self.state()
        let head = ResponseHead(statusCode: 404, url: Self.url)
        let outcome = try #require(Self.finished(state.ended(head, Data("nope".utf8), nil)))
        #expect(outcome.data == Data("nope".utf8))
        #expect(outcome.head?.statusCode == 404)
    }

    /// The outcome is classified once, where it is made: the dispatch, the stream's end and the
    /// finish handlers read its failure instead of asking the head again.
    @Test func aStatusOutside2xxIsClassifiedWhereTheOutcomeIsMade() throws {
        var state = Self.state()
        let outcome = try #require(Self.finished(state.ended(ResponseHead(statusCode: 503, url: Self.url), Data("busy".utf8), nil)))
        guard case .serverStatus(let problem)? = outcome.failure else { Issue.record("a 503 is .serverStatus, got \(String(describing: outcome.failure))"); return }
        #expect(problem.statusCode == 503)
        #expect(problem.body == Data("busy".utf8))
        var succeeded = Self.state()
        let success = try #require(Self.finished(succeeded.ended(ResponseHead(statusCode: 204, url: Self.url), nil, nil)))
        #expect(success.failure == nil)
        #expect(success.data == Data())
    }

    @Test func aStreamed2xxHeadAndItsChunksGoOutAsTheyArrive() throws {
        var state = Self.state(streaming: true)
        let head = ResponseHead(statusCode: 200, url: Self.url)
        guard case .report(let reported?, nil, nil) = state.received(head) else { Issue.record("the head goes out"); return }
        #expect(reported.statusCode == 200)
        guard case .report(nil, let chunk?, nil) = state.received(Data("a".utf8)) else { Issue.record("the chunk goes out"); return }
        #expect(chunk == Data("a".utf8))
        guard case .finish(let outcome, _, let hasStreamedHead, _, _, _) = state.ended(nil, nil, nil) else {
            Issue.record("the end finishes"); return
        }
        #expect(hasStreamedHead)
        #expect(outcome.data == nil)
    }

    @Test func aStreamedHeadOutside2xxIsCollectedForTheError() throws {
        var state = Self.state(streaming: true)
        guard case .none = state.received(ResponseHead(statusCode: 500, url: Self.url)) else { Issue.record("kept"); return }
        guard case .none = state.received(Data("oops".utf8)) else { Issue.record("kept"); return }
        let outcome = try #require(Self.finished(state.ended(nil, nil, nil)))
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
        guard case .none = state.ended(nil, nil, nil) else { Issue.record("a late end is dropped"); return }
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
        guard case .finish(_, _, _, nil, _, _) = state.ended(ResponseHead(statusCode: 200, url: Self.url), Data("x".utf8), nil) else {
            Issue.record("nobody is parked yet"); return
        }
        let taken = state.takeOutcome()
        let outcome = try #require(taken)
        #expect(try outcome.get().data == Data("x".utf8))
        #expect(state.takeOutcome() == nil)
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
