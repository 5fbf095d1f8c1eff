import Foundation
import Testing
import Salvo
import SalvoTesting

/// Controllers made from typed calls: the value type, decoder and error body come from the call.
@Suite struct RefresherTypedCallTests {
    typealias Ticket = TypedCallTests.Ticket
    typealias Problem = TypedCallTests.Problem

    private let server = ServerConfig(host: "api.test")

    private func typed<Value>(_ answer: MockResponse, as: Value.Type = Value.self) -> TypedCall<Value, Problem> {
        TypedCall(NetCall(server: server, endpoint: .get("/tickets"), firingFunction: .mock(answer)))
    }

    @MainActor @Test func aRefresherTakesTheValueTypeFromTheTypedCall() async {
        let refresher = Refresher(typed(.json(Ticket(number: 1, title: "Crash")), as: Ticket.self))
        await refresher.refresh()
        #expect(refresher.value == Ticket(number: 1, title: "Crash"))
        #expect(refresher.error == nil)
    }

    @MainActor @Test func aFailedRefreshHandsTheDecodedErrorBodyToTheTypedCallsHandler() async {
        let log = MainActorLog()
        var call = typed(.json(Problem(message: "down for maintenance"), status: 503), as: Ticket.self)
        call.apiErrorHandler = { error in log.append("api \(error.body?.message ?? "-")") }
        let refresher = Refresher(call)

        await refresher.refresh()

        #expect(refresher.error?.statusCode == 503)
        #expect(await log.entries(1) == ["api down for maintenance"])
    }

    @MainActor @Test func aRefreshThatLandsRunsTheValueHandlerAfterTheState() async {
        let log = MainActorLog()
        var call = typed(.json(Ticket(number: 1, title: "Crash")), as: Ticket.self)
        let refresher = Refresher(call)
        call.valueHandler = { ticket in log.append("not the refresher's call: \(ticket.title)") }
        var handled = call
        handled.valueHandler = { ticket in log.append("value \(ticket.title)") }
        let withHandler = Refresher(handled)

        await refresher.refresh()
        await withHandler.refresh()

        #expect(await log.entries(1) == ["value Crash"])
        #expect(withHandler.value?.title == "Crash")
    }

    @Test func aRefresherDecodingAnywhereWorksOffTheMainActor() async {
        let refresher = Refresher(decodingAnywhere: typed(.json([Ticket(number: 2, title: "Hang")]), as: [Ticket].self))
        await refresher.refresh()
        #expect(refresher.value?.map(\.number) == [2])
    }

    @MainActor @Test func aPagerTakesTheItemTypeFromATypedCallOfAnArray() async {
        let pager = Pager(typed(.json([Ticket(number: 1, title: "Crash"), Ticket(number: 1, title: "Crash")]), as: [Ticket].self),
                          strategy: .pageNumber(pageSize: 5), id: \Ticket.number)
        await pager.loadNextPage()
        #expect(pager.items == [Ticket(number: 1, title: "Crash")])
        #expect(pager.hasMore == false)
    }

    @MainActor @Test func aPagerHandsAFailedPagesDecodedErrorBodyToTheTypedCallsHandler() async {
        let log = MainActorLog()
        var call = typed(.sequence([
            .json([Ticket(number: 1, title: "Crash"), Ticket(number: 2, title: "Hang")]),
            .json(Problem(message: "page out of range"), status: 422),
        ]), as: [Ticket].self)
        call.valueHandler = { tickets in log.append("value \(tickets.map(\.number))") }
        call.apiErrorHandler = { error in log.append("api \(error.error.statusCode ?? 0) \(error.body?.message ?? "-")") }
        let pager = Pager(call, strategy: .pageNumber(pageSize: 2), id: \Ticket.number)

        await pager.loadNextPage()
        await pager.loadNextPage()
        await Self.mainQueueRanWhatWasQueued()

        #expect(await log.entries(0) == ["value [1, 2]", "api 422 page out of range"])
        // The pager's own state is as for an untyped call: the items stay, the error is kept.
        #expect(pager.items.map(\.number) == [1, 2])
        #expect(pager.error?.statusCode == 422)
        #expect(pager.hasMore)
    }

    @MainActor @Test func aPagerOverAPageBodyKeepsTheTypedCallsErrorHandler() async {
        let log = MainActorLog()
        var call = typed(.json(Problem(message: "no such shelf"), status: 422), as: [Ticket].self)
        call.apiErrorHandler = { error in log.append("api \(error.body?.message ?? "-")") }
        let pager = Pager(call: call, strategy: .pageNumber(pageSize: 2)) { (tickets: [Ticket]) in Page(items: tickets) }

        await pager.loadNextPage()
        await Self.mainQueueRanWhatWasQueued()

        #expect(await log.entries(0) == ["api no such shelf"])
        #expect(pager.error?.statusCode == 422)
    }

    /// Returns once the main queue ran what was queued on it before: the typed handlers a load
    /// handed on before its waiter resumed.
    private static func mainQueueRanWhatWasQueued() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    @MainActor @Test func aRefreshGroupRefreshesTypedControllersOfDifferentTypes() async {
        let ticket = Refresher(typed(.json(Ticket(number: 1, title: "Crash")), as: Ticket.self))
        let list = Pager(typed(.json([Ticket(number: 2, title: "Hang")]), as: [Ticket].self), strategy: .pageNumber(pageSize: 5), id: \Ticket.number)
        let screen = RefreshGroup([ticket, list])

        await screen.refresh()

        #expect(ticket.value?.number == 1)
        #expect(list.items.map(\.number) == [2])
        #expect(screen.error == nil)
    }
}
