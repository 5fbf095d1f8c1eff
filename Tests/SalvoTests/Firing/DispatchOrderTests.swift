import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct DispatchOrderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let reply: ScriptedSession.Reply
        let expected: [ResponderEvent]
        var testDescription: String { name }
    }

    static let body = Data(#"{"error":"nope"}"#.utf8)

    static let cases: [Case] = [
        Case(name: "200 with body", reply: .status(200, body: Data("ok".utf8)),
             expected: [.task, .response, .httpResponse(status: 200), .data(Data("ok".utf8))]),
        Case(name: "204 without body", reply: .status(204),
             expected: [.task, .response, .httpResponse(status: 204), .data(Data())]),
        Case(name: "404 with body", reply: .status(404, body: body),
             expected: [.task, .response, .httpResponse(status: 404), .errorData(body), .serverError(status: 404)]),
        Case(name: "500 without body", reply: .status(500),
             expected: [.task, .response, .httpResponse(status: 500), .errorData(Data()), .serverError(status: 500)]),
        Case(name: "302 not followed is a server status", reply: .status(302),
             expected: [.task, .response, .httpResponse(status: 302), .errorData(Data()), .serverError(status: 302)]),
        Case(name: "transport error", reply: .failure(.notConnectedToInternet),
             expected: [.task, .noResponse, .error(.transport(URLError(.notConnectedToInternet))), .errorData(nil)]),
        Case(name: "transport cancellation maps to cancelled", reply: .failure(.cancelled),
             expected: [.task, .noResponse, .error(.cancelled), .errorData(nil)]),
    ]

    @Test(arguments: cases)
    func handlersRunInDocumentedOrderExactlyOnce(_ testCase: Case) async {
        let log = ResponderLog()
        testCall(.get("/thing"), session: ScriptedSession(testCase.reply), log: log).fire()
        #expect(await log.waitForOutcome(timeout: 10) == testCase.expected)
    }

    @Test func invalidRequestSkipsTaskAndResponseHandlersAndNeverReachesTheSession() async {
        let log = ResponderLog()
        let session = ScriptedSession(.status(200))
        testCall(.get("/thing"), server: ServerConfig(host: "bad host"), session: session, log: log).fire()
        #expect(await log.waitForOutcome(timeout: 10).map(\.description) == ["error(invalidRequest host)", "errorData(nil)"])
        #expect(session.requests.isEmpty)
    }

    @Test func cancellingDeliversCancelledOnceAndDropsTheLateAnswer() async throws {
        let log = ResponderLog()
        let session = ScriptedSession(.hang)
        let task = testCall(.get("/slow"), session: session, log: log).fire()
        task.cancel()
        task.cancel()
        #expect(await log.waitForOutcome(timeout: 10) == [.task, .noResponse, .error(.cancelled), .errorData(nil)])
        #expect(task.isCancelled)
        #expect(task.isFinished)
        #expect(session.requests.count == 1)
    }

    /// A task handler on `.immediate` runs before the request is sent, so cancelling there stops it.
    @Test func aTaskCancelledByAnImmediateTaskHandlerNeverReachesTheSession() {
        let session = ScriptedSession(.status(200))
        let errors = Locked<[NetworkError]>([])
        let delivered = Locked<Int>(0)
        let call = NetCall(
            server: ServerConfig(host: "example.com"),
            endpoint: .get("/thing"),
            responder: NetworkResponder(
                taskHandler: { $0.cancel() },
                dataHandler: { _ in delivered.withLock { $0 += 1 } },
                errorHandler: { error in errors.withLock { $0.append(error) } }
            ),
            callbackQueue: .immediate,
            firingFunction: .session(session)
        )
        let task = call.fire()
        #expect(task.isCancelled)
        #expect(session.requests.isEmpty)
        #expect(delivered.withLock { $0 } == 0)
        let seen = errors.withLock { $0 }
        #expect(seen.count == 1)
        guard case .cancelled? = seen.first else {
            Issue.record("expected one cancelled error, got \(seen)")
            return
        }
    }

    @Test func cancellingAFinishedTaskChangesNothing() async {
        let log = ResponderLog()
        let task = testCall(.get("/x"), session: ScriptedSession(.status(200)), log: log).fire()
        let events = await log.waitForOutcome(timeout: 10)
        task.cancel()
        #expect(!task.isCancelled)
        #expect(events.count == 4)
    }

    @Test func handlersRunOnTheConfiguredQueue() async {
        let queue = DispatchQueue(label: "salvo.test.callbacks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Locked<[Bool]>([])
        let log = ResponderLog()
        var call = testCall(.get("/x"), session: ScriptedSession(.status(200)), log: log)
        call.callbackQueue = .queue(queue)
        call.responder.append(NetworkResponder(
            taskHandler: { _ in onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) } },
            dataHandler: { _ in onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) } }
        ))
        call.fire()
        _ = await log.waitForOutcome(timeout: 10)
        #expect(onQueue.withLock { $0 } == [true, true])
    }

    @Test func appendedRespondersBothRunInOrder() async {
        let log = Locked<[String]>([])
        let first = NetworkResponder(dataHandler: { _ in log.withLock { $0.append("first") } })
        let second = NetworkResponder(dataHandler: { _ in log.withLock { $0.append("second") } })
        let recorded = ResponderLog()
        var call = testCall(.get("/x"), session: ScriptedSession(.status(200)), log: recorded)
        call.responder = first
        call.responder.append(second)
        call.responder.append(recorded.responder)
        call.fire()
        _ = await recorded.waitForOutcome(timeout: 10)
        #expect(log.withLock { $0 } == ["first", "second"])
    }

    /// The handlers sit behind one shared reference (a copy costs one retain): setting one on a copy
    /// must still leave the original, and every other copy, as it was.
    @Test func settingAHandlerOnACopyLeavesTheOriginalAsItWas() {
        let log = Locked<[String]>([])
        var original = NetworkResponder(dataHandler: { _ in log.withLock { $0.append("original data") } })
        original.errorHandler = { _ in log.withLock { $0.append("original error") } }
        var copy = original
        copy.dataHandler = { _ in log.withLock { $0.append("copy data") } }
        copy.progressHandler = { _ in }
        let unchanged = original
        original.metricsHandler = { _ in }

        for responder in [original, unchanged, copy] {
            NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/x"), responder: responder, callbackQueue: .immediate, firingFunction: .mock(.status(200))).fire()
        }
        copy.errorHandler(.cancelled)

        #expect(log.withLock { $0 } == ["original data", "original data", "copy data", "original error"])
        #expect(original.progressHandler == nil)
        #expect(copy.progressHandler != nil)
        #expect(original.metricsHandler != nil)
        #expect(unchanged.metricsHandler == nil && copy.metricsHandler == nil)
    }

    @Test func fireIsUsableThroughTheFireFunctionAlone() async {
        let log = ResponderLog()
        let fire: @Sendable () -> NetworkTask = testCall(.get("/x"), session: ScriptedSession(.status(200)), log: log).fire
        _ = fire()
        #expect(await log.waitForOutcome(timeout: 10).last == .data(Data()))
    }

    /// A call to `server` firing through `session`, with immediate callbacks into `log`.
    private func testCall(_ endpoint: Endpoint, server: ServerConfig = ServerConfig(host: "api.example.com"), session: ScriptedSession, log: ResponderLog) -> NetCall {
        NetCall(server: server, endpoint: endpoint, responder: log.responder, callbackQueue: .immediate, firingFunction: session.firingFunction)
    }
}
