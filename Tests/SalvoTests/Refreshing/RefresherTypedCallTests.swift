import Foundation
import Testing
import Salvo

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
