import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

/// A refresh group refreshes controllers and fires calls of any type, and returns once all are in.
@Suite struct RefreshGroupTests {
    typealias Ticket = TypedCallTests.Ticket
    typealias Problem = TypedCallTests.Problem

    private let server = ServerConfig(host: "api.test")

    @MainActor @Test func aRefreshFiresTheCallsAndReturnsOnceTheirHandlersRan() async {
        let log = MainActorLog()
        var ticket = TypedCall<Ticket, Problem>(NetCall(server: server, endpoint: .get("/tickets/1"),
                                                        firingFunction: .mock(.json(Ticket(number: 1, title: "Crash")))))
        ticket.valueHandler = { ticket in log.append("ticket \(ticket.title)") }
        var seen = NetCall(server: server, endpoint: .post("/seen"), firingFunction: .mock(.status(204)))
        seen.responder = .onMainActor(httpResponseHandler: { response in log.append("seen \(response.statusCode)") })
        let list = Refresher(TypedCall<[Ticket], Problem>(NetCall(server: server, endpoint: .get("/tickets"),
                                                                  firingFunction: .mock(.json([Ticket(number: 2, title: "Hang")])))))
        let screen = RefreshGroup([list], firing: [ticket, seen])

        await screen.refresh()

        // Not waited for: the handlers ran before `refresh()` returned.
        #expect(await log.entries(0).sorted() == ["seen 204", "ticket Crash"])
        #expect(list.value?.map(\.number) == [2])
        #expect(screen.isRefreshing == false)
        #expect(screen.error == nil)
    }

    @MainActor @Test func aFiredCallsFailureGoesToItsHandlerNotToTheGroup() async {
        let log = MainActorLog()
        var ticket = TypedCall<Ticket, Problem>(NetCall(server: server, endpoint: .get("/tickets/9"),
                                                        firingFunction: .mock(.json(Problem(message: "no such ticket"), status: 404))))
        ticket.apiErrorHandler = { error in log.append("api \(error.body?.message ?? "-")") }
        let screen = RefreshGroup([], firing: [ticket])

        await screen.refresh()
        await screen.refresh()

        #expect(await log.entries(0) == ["api no such ticket", "api no such ticket"])
        #expect(screen.error == nil)
    }
}
