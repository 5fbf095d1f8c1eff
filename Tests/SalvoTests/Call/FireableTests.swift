import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo

/// Calls fired as `any Fireable` by code that names neither endpoint nor type: typed calls decode
/// and run their typed handlers, on the main actor, after the responder's, once per firing.
@Suite struct FireableTests {
    typealias Ticket = TypedCallTests.Ticket
    typealias Problem = TypedCallTests.Problem

    private let server = ServerConfig(host: "api.test")

    private func typed<Value>(_ endpoint: Endpoint, _ answer: MockResponse, as: Value.Type = Value.self) -> TypedCall<Value, Problem> {
        TypedCall(NetCall(server: server, endpoint: endpoint, firingFunction: .mock(answer)))
    }

    /// Fires every call the way a refresh button does: it knows only `Fireable`.
    private func tap(_ calls: [any Fireable]) {
        for call in calls { call.fire() }
    }

    @MainActor @Test func typedCallsOfDifferentTypesFireBlindWithTheirTypedHandlers() async {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/1"), .json(Ticket(number: 1, title: "Crash")), as: Ticket.self)
        ticket.valueHandler = { log.append("ticket \($0.title)") }
        var tickets = typed(.get("/tickets"), .json([Ticket(number: 2, title: "Hang")]), as: [Ticket].self)
        tickets.valueHandler = { log.append("tickets \($0.map(\.number))") }
        var raw = NetCall(server: server, endpoint: .get("/ping"), firingFunction: .mock(.text("pong")))
        raw.responder = .onMainActor(dataHandler: { log.append("raw \(String(decoding: $0, as: UTF8.self))") })

        tap([ticket, tickets, raw])

        #expect(await log.entries(3).sorted() == ["raw pong", "ticket Crash", "tickets [2]"])
    }

    @MainActor @Test func aFailureReachesTheAPIErrorHandlerWithItsBodyAfterTheRespondersHandlers() async throws {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/9"), .json(Problem(message: "no such ticket"), status: 404), as: Ticket.self)
        ticket.responder = .onMainActor(serverErrorHandler: { _ in log.append("responder") })
        ticket.valueHandler = { _ in log.append("value") }
        ticket.apiErrorHandler = { error in log.append("api \(error.error.statusCode ?? 0) \(error.body?.message ?? "-")") }

        tap([ticket])

        #expect(await log.entries(2) == ["responder", "api 404 no such ticket"])
    }

    @MainActor @Test func aBodyThatIsNotTheValueReachesTheAPIErrorHandlerAsDecoding() async {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/1"), .json(["unexpected": true]), as: Ticket.self)
        ticket.valueHandler = { _ in log.append("value") }
        ticket.apiErrorHandler = { error in
            if case .decoding = error.error { log.append("decoding, body \(error.body == nil ? "nil" : "set")") }
        }

        tap([ticket])

        #expect(await log.entries(1) == ["decoding, body nil"])
    }

    @MainActor @Test func typedHandlersRunOnTheMainActorFromAnotherQueue() async {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/1"), .json(Ticket(number: 1, title: "Crash")), as: Ticket.self)
        ticket.callbackQueue = .queue(DispatchQueue(label: "callbacks"))
        ticket.responder.dataHandler = { _ in log.appendFromAnyThread("responder") }
        ticket.valueHandler = { _ in
            MainActor.assertIsolated()
            log.append("value")
        }

        tap([ticket])

        #expect(await log.entries(2) == ["responder", "value"])
    }

    @MainActor @Test func aVoidCallsValueHandlerRunsOnSuccess() async {
        let log = MainActorLog()
        var delete = typed(.get("/tickets/1"), .status(204), as: Void.self)
        delete.valueHandler = { _ in log.append("deleted") }

        tap([delete])

        #expect(await log.entries(1) == ["deleted"])
    }

    @MainActor @Test func withoutTypedHandlersATypedCallFiresAsItsNetCall() async {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/1"), .json(Ticket(number: 1, title: "Crash")), as: Ticket.self)
        ticket.responder = .onMainActor(dataHandler: { log.append("data \($0.isEmpty ? "empty" : "full")") })
        #expect(ticket.valueHandler == nil)

        tap([ticket])

        #expect(await log.entries(1) == ["data full"])
    }

    @MainActor @Test func fireWithACompletionRunsTheTypedHandlersFirstOncePerFiring() async {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/1"), .json(Ticket(number: 1, title: "Crash")), as: Ticket.self)
        ticket.valueHandler = { log.append("handler \($0.title)") }
        ticket.fire { result in log.append("completion \((try? result.get().value.title) ?? "-")") }
        ticket.fire()

        #expect(await log.entries(3) == ["handler Crash", "completion Crash", "handler Crash"])
    }

    @Test func aHandlerSetLaterReplacesTheOneSetWhereTheCallWasConfigured() async {
        let log = MainActorLog()
        var ticket = typed(.get("/tickets/1"), .json(Ticket(number: 1, title: "Crash")), as: Ticket.self)
        ticket.valueHandler = { _ in log.append("configured") }
        var later = ticket
        later.valueHandler = { _ in log.append("later") }
        ticket.apiErrorHandler = { _ in log.append("error") }

        let calls: [any Fireable] = [later]
        calls[0].fire()

        #expect(await log.entries(1) == ["later"])
    }
}

/// What main-actor handlers saw, in order; a test awaits the count it expects, not a delay.
@MainActor final class MainActorLog {
    private var lines: [String] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []

    nonisolated init() {}

    func append(_ line: String) {
        lines.append(line)
        let ready = waiters.filter { lines.count >= $0.count }
        waiters.removeAll { lines.count >= $0.count }
        for waiter in ready { waiter.continuation.resume(returning: lines) }
    }

    /// For a handler that runs on a queue other than the main one.
    nonisolated func appendFromAnyThread(_ line: String) {
        let send: @MainActor @Sendable () -> Void = { self.append(line) }
        DispatchQueue.main.async { MainActor.assumeIsolated(send) }
    }

    /// The lines, once there are at least `count`.
    func entries(_ count: Int) async -> [String] {
        if lines.count >= count { return lines }
        return await withCheckedContinuation { waiters.append((count, $0)) }
    }
}
