import Foundation
import Testing
import Salvo

/// Typed calls in controllers against the loopback server: a pager's failed page reaches the typed
/// call's error handler with the server's body decoded; a refresh group fires a typed call too.
@Suite struct TypedControllersIntegrationTests {
    struct ListItem: Codable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    /// The loopback list's failure body.
    struct ListFailure: Codable, Sendable {
        let error: String
        let page: Int
    }

    struct Echoed: Codable, Sendable {
        let method: String
    }

    @MainActor @Test func aGroupFiresATypedCallAndAPagersFailedPageReachesItsErrorHandler() async throws {
        let server = try await ServerConfig.loopback()
        let log = MainActorLog()
        var list = TypedCall<[ListItem], ListFailure>(NetCall(server: server, endpoint: .get(
            "/list/\(UUID().uuidString)/link", query: ["per_page": "10", "total": "30", "fail_page": "2", "fail_times": "1"]
        )))
        list.apiErrorHandler = { error in log.append("list \(error.error.statusCode ?? 0) page \(error.body?.page ?? 0)") }
        var echo = TypedCall<Echoed, ListFailure>(NetCall(server: server, endpoint: .get("/echo")))
        echo.valueHandler = { echoed in log.append("echo \(echoed.method)") }
        let pager = Pager(list, strategy: .linkHeader(), id: \ListItem.id)
        let screen = RefreshGroup([pager], firing: [echo])

        await screen.refresh()
        #expect(await log.entries(0) == ["echo GET"])
        #expect(pager.items.count == 10)

        await pager.loadNextPage()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }   // behind the handler the load queued
        }
        #expect(await log.entries(0) == ["echo GET", "list 500 page 2"])
        #expect(pager.items.count == 10)
        #expect(pager.error?.statusCode == 500)
    }
}
