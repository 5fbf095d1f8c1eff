import Foundation
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// `WebSocketCall.fire()`: handlers set where the call is configured, run by code that knows nothing of it.
@Suite struct WebSocketFiringTests {
    private final class Events: Sendable {
        let log = Locked<[String]>([])
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        func append(_ event: String) {
            log.withLock { $0.append(event) }
            continuation.yield()
        }
    }

    private func call(_ mock: MockWebSocketServer, events: Events) -> WebSocketCall {
        var call = WebSocketCall(server: ServerConfig(scheme: "ws", host: "127.0.0.1"), endpoint: .get("/feed"), callbackQueue: .immediate)
        call.transport = .mock(mock)
        call.responder.opened = { connection in
            events.append("opened")
            Task { try await connection.send("hi") }
        }
        call.responder.message = { message in events.append("message \(message.data.count)") }
        call.responder.closed = { close in events.append("closed \(close.map { "\($0.code.rawValue)" } ?? "nil")") }
        call.responder.failed = { error in events.append("failed \(error.isCancelled ? "cancelled" : "other")") }
        return call
    }

    private func wait(for count: Int, in events: Events) async {
        for await _ in events.stream where events.log.withLock({ $0.count }) >= count { return }
    }

    @Test func fireRunsOpenedEachMessageThenClosedOnce() async {
        let events = Events()
        let mock = MockWebSocketServer { peer in
            _ = await peer.receive()
            try await peer.send("one")
            try await peer.send("three")
            await peer.close(.goingAway)
        }
        let task = call(mock, events: events).fire()
        await wait(for: 4, in: events)
        #expect(events.log.withLock { $0 } == ["opened", "message 3", "message 5", "closed 1001"])
        #expect(task.isFinished)
    }

    /// A trigger that holds `[any Fireable]` fires a WebSocket call beside a request, knowing neither.
    @Test func aWebSocketCallFiresAsAnyFireableBesideARequest() async throws {
        let events = Events()
        let mock = MockWebSocketServer { peer in
            try await peer.send("hello")
            await peer.close(.normalClosure)
        }
        var request = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/me"), callbackQueue: .immediate)
        request.firingFunction = .mock(.json(["name": "Ada"]))
        request.responder.dataHandler = { _ in events.append("request") }
        let triggers: [any Fireable] = [call(mock, events: events), request]
        for trigger in triggers { trigger.fire() }
        await wait(for: 4, in: events)
        let log = events.log.withLock { $0 }
        #expect(log.contains("request"))
        #expect(log.filter { $0 != "request" } == ["opened", "message 5", "closed 1000"])
    }

    @Test func fireRunsFailedOnARefusedHandshake() async {
        let events = Events()
        _ = call(MockWebSocketServer(handshakes: [.refuse(statusCode: 503)]) { _ in }, events: events).fire()
        await wait(for: 1, in: events)
        #expect(events.log.withLock { $0 } == ["failed other"])
    }

    @Test func cancellingTheTaskClosesWith1000AndRunsFailedOnce() async throws {
        let events = Events()
        let mock = MockWebSocketServer { peer in _ = await peer.receive(); _ = await peer.receive() }
        let task = call(mock, events: events).fire()
        await wait(for: 1, in: events)
        try await waitUntil { !mock.log.sentMessages.isEmpty }
        task.cancel()
        task.cancel()
        try await waitUntil { !mock.log.closes.isEmpty }
        #expect(mock.log.closes == [WebSocketClose(.normalClosure)])
        #expect(events.log.withLock { $0 }.filter { $0.hasPrefix("failed") || $0.hasPrefix("closed") } == ["failed cancelled"])
    }
}
