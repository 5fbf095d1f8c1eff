import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo

/// Typed calls of different value types fired as `any Fireable` against the loopback server,
/// through URLSession: each decodes and runs its own typed handlers on the main actor.
@Suite struct FireableIntegrationTests {
    struct Book: Codable, Equatable {
        let id: Int
        let title: String
    }

    struct Shelf: Codable {
        let items: [Book]
    }

    struct Problem: Codable {
        let message: String
    }

    @MainActor @Test func aRefreshButtonFiresTypedCallsOverTheNetwork() async throws {
        let server = try await ServerConfig.loopback()
        let log = MainActorLog()
        var book = TypedCall<Book, Problem>(NetCall(server: server, endpoint: .get("/catalog/books/2")))
        book.valueHandler = { log.append("book \($0.title)") }
        var shelf = TypedCall<Shelf, Problem>(NetCall(server: server, endpoint: .get("/catalog/books", query: ["per_page": "3"])))
        shelf.valueHandler = { log.append("shelf \($0.items.map(\.id))") }
        var missing = TypedCall<Book, Problem>(NetCall(server: server, endpoint: .get("/catalog/books/999")))
        missing.valueHandler = { _ in log.append("found the missing book") }
        missing.apiErrorHandler = { log.append("missing \($0.error.statusCode ?? 0): \($0.body?.message ?? "-")") }

        let calls: [any Fireable] = [book, shelf, missing]
        for call in calls { call.fire() }

        let entries = try await withTimeout { await log.entries(3) }
        #expect(entries.sorted() == [
            "book Moby-Dick",
            "missing 404: No book with id 999 in the catalogue.",
            "shelf [1, 2, 3]",
        ])
    }
}
