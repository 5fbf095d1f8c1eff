import Foundation
import Testing
import Salvo

// The paged mock routes in Docs/Mocking.md, kept here so they cannot rot.

enum MockPagesSamples {
    struct Book: Codable, Sendable, Identifiable, Equatable {
        let id: Int
        let title: String
    }

    static let books = (1...95).map { Book(id: $0, title: "Book \($0)") }

    static let routes = MockRoutes(under: "/v1", [
        .pages("/books", of: books, paging: .pageNumber(pageSize: 20)),         // ?page=2&per_page=20
        .pages("/feed", of: books, paging: .cursor(pageSize: 10)),               // ?cursor=… from next_cursor
        .pages("/repos", of: books, paging: .linkHeader(pageSize: 30), body: .array),
    ])

    static func booksPager(server: ServerConfig) -> Pager<Book> {
        let call = NetCall(server: server, endpoint: .get("/books"), firingFunction: .mock(routes))
        return Pager(call: call, strategy: .pageNumber(pageSize: 20), decoder: .object(), id: \Book.id)
    }
}

@Suite struct MockPagesSamplesTests {
    @Test func theSampleRoutesServeWholeLists() async throws {
        let server = ServerConfig(host: "api.example.com", basePath: "v1")
        let books = try await MockPagesSamples.booksPager(server: server).loadAll()
        #expect(books == MockPagesSamples.books)

        let feed = NetCall(server: server, endpoint: .get("/feed"), firingFunction: .mock(MockPagesSamples.routes))
        let feedItems = try await Pager(call: feed, strategy: .cursor(from: .body), decoder: .object(), id: \MockPagesSamples.Book.id).loadAll()
        #expect(feedItems.count == 95)

        let repos = NetCall(server: server, endpoint: .get("/repos"), firingFunction: .mock(MockPagesSamples.routes))
        let repoItems = try await Pager(call: repos, strategy: .linkHeader(), decoder: .array(), id: \MockPagesSamples.Book.id).loadAll()
        #expect(repoItems.count == 95)
    }
}
