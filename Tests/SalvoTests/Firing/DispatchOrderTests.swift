import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

@Suite struct DispatchOrderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let reply: FakeSession.Reply
        let expected: [HandlerEvent]
        var testDescription: String { name }
    }

    static let body = Data(#"{"error":"nope"}"#.utf8)

    static let cases: [Case] = [
        Case(name: "200 with body", reply: .http(status: 200, body: Data("ok".utf8)),
             expected: [.task, .response(hasResponse: true), .httpResponse(status: 200), .data(Data("ok".utf8))]),
        Case(name: "204 without body", reply: .http(status: 204),
             expected: [.task, .response(hasResponse: true), .httpResponse(status: 204), .data(Data())]),
        Case(name: "404 with body", reply: .http(status: 404, body: body),
             expected: [.task, .response(hasResponse: true), .httpResponse(status: 404), .errorData(body), .serverError(status: 404)]),
        Case(name: "500 without body", reply: .http(status: 500),
             expected: [.task, .response(hasResponse: true), .httpResponse(status: 500), .errorData(Data()), .serverError(status: 500)]),
        Case(name: "302 not followed is a server status", reply: .http(status: 302),
             expected: [.task, .response(hasResponse: true), .httpResponse(status: 302), .errorData(Data()), .serverError(status: 302)]),
        Case(name: "transport error", reply: .failure(.notConnectedToInternet),
             expected: [.task, .response(hasResponse: false), .error("transport.\(URLError.Code.notConnectedToInternet.rawValue)"), .errorData(nil)]),
        Case(name: "transport cancellation maps to cancelled", reply: .failure(.cancelled),
             expected: [.task, .response(hasResponse: false), .error("cancelled"), .errorData(nil)]),
    ]

    @Test(arguments: cases)
    func handlersRunInDocumentedOrderExactlyOnce(_ testCase: Case) async {
        let recorder = HandlerRecorder()
        NetCall.test(.get("/thing"), session: FakeSession(testCase.reply), recorder: recorder).fire()
        await recorder.waitForOutcome()
        #expect(recorder.events == testCase.expected)
    }

    @Test func invalidRequestSkipsTaskAndResponseHandlersAndNeverReachesTheSession() async {
        let recorder = HandlerRecorder()
        let session = FakeSession(.http(status: 200))
        NetCall.test(.get("/thing"), server: ServerConfig(host: "bad host"), session: session, recorder: recorder).fire()
        await recorder.waitForOutcome()
        #expect(recorder.events == [.error("invalid.host"), .errorData(nil)])
        #expect(session.requests.isEmpty)
    }

    @Test func cancellingDeliversCancelledOnceAndDropsTheLateAnswer() async throws {
        let recorder = HandlerRecorder()
        let session = FakeSession(.hang)
        let task = NetCall.test(.get("/slow"), session: session, recorder: recorder).fire()
        task.cancel()
        task.cancel()
        await recorder.waitForOutcome()
        #expect(recorder.events == [.task, .response(hasResponse: false), .error("cancelled"), .errorData(nil)])
        #expect(task.isCancelled)
        #expect(task.isFinished)
        #expect(session.requests.count == 1)
    }

    @Test func cancellingAFinishedTaskChangesNothing() async {
        let recorder = HandlerRecorder()
        let task = NetCall.test(.get("/x"), session: FakeSession(.http(status: 200)), recorder: recorder).fire()
        await recorder.waitForOutcome()
        task.cancel()
        #expect(!task.isCancelled)
        #expect(recorder.events.count == 4)
    }

    @Test func handlersRunOnTheConfiguredQueue() async {
        let queue = DispatchQueue(label: "salvo.test.callbacks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Locked<[Bool]>([])
        let recorder = HandlerRecorder()
        var call = NetCall.test(.get("/x"), session: FakeSession(.http(status: 200)), recorder: recorder)
        call.callbackQueue = .queue(queue)
        call.responder = call.responder.combined(with: NetworkResponder(
            taskHandler: { _ in onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) } },
            dataHandler: { _ in onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) } }
        ))
        call.fire()
        await recorder.waitForOutcome()
        #expect(onQueue.withLock { $0 } == [true, true])
    }

    @Test func combinedRespondersBothRunInOrder() async {
        let log = Locked<[String]>([])
        let first = NetworkResponder(dataHandler: { _ in log.withLock { $0.append("first") } })
        let second = NetworkResponder(dataHandler: { _ in log.withLock { $0.append("second") } })
        let recorder = HandlerRecorder()
        var call = NetCall.test(.get("/x"), session: FakeSession(.http(status: 200)), recorder: recorder)
        call.responder = first.combined(with: second).combined(with: recorder.responder)
        call.fire()
        await recorder.waitForOutcome()
        #expect(log.withLock { $0 } == ["first", "second"])
    }

    @Test func fireIsUsableThroughFireableAlone() async {
        let recorder = HandlerRecorder()
        let fireable: any Fireable = NetCall.test(.get("/x"), session: FakeSession(.http(status: 200)), recorder: recorder)
        fireable.fire()
        await recorder.waitForOutcome()
        #expect(recorder.events.last == .data(Data()))
    }
}
