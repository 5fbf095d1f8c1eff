import Foundation
import Salvo
import SalvoDemoKit

/// Fires the catalogue's calls and tells what happened. It knows no URL: only `CatalogAPI`.
struct CatalogTour {
    let api: CatalogAPI
    let say: @Sendable (String) -> Void

    /// Why the tour stopped early.
    struct Stop: Error {
        let message: String
    }

    func run() async throws(Stop) {
        try await pages()
        await bookThatDoesNotExist()
        await emptySearch()
        try await favourites()
    }

    /// Three pages through the pager, then a pull-to-refresh.
    private func pages() async throws(Stop) {
        let pager = api.bookPager()
        say("Books, three pages of \(CatalogAPI.pageSize):")
        for _ in 1...3 {
            await pager.loadNextPage()
            if let error = pager.error { throw Stop(message: "Could not load the catalogue: \(error.localizedDescription)") }
        }
        for (index, book) in pager.items.enumerated() {
            say(String(format: "  %2d. ", index + 1) + "\(book.title) — \(book.author) (\(book.year))")
        }
        say("  \(pager.state.pageCount) pages, \(pager.items.count) books, more to load: \(pager.hasMore ? "yes" : "no")")

        await pager.refresh()
        if let error = pager.error { throw Stop(message: "Could not refresh: \(error.localizedDescription)") }
        say("")
        say("Pull to refresh: page 1 reloaded and replaced the list → \(pager.items.count) books, first \"\(pager.items.first?.title ?? "-")\"")
    }

    /// The callback API: the 404 reaches `serverErrorHandler`, whose error carries the body.
    private func bookThatDoesNotExist() async {
        let message = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            var call = api.book(id: 999)
            call.responder.serverErrorHandler = { error in
                let problem = error.responseBody.flatMap { try? JSONDecoder().decode(CatalogProblem.self, from: $0) }
                done.resume(returning: "error handler: book 999 → HTTP \(error.statusCode ?? 0): \(problem?.message ?? error.localizedDescription)")
            }
            call.responder.errorHandler = { error in done.resume(returning: "error handler: \(error.localizedDescription)") }
            call.responder.dataHandler = { _ in done.resume(returning: "unexpected: book 999 exists") }
            call.fire()
        }
        say("")
        say(message)
    }

    /// The async API with a typed error body: the 422's `{"message": …}` decoded as `CatalogProblem`.
    private func emptySearch() async {
        say("")
        do {
            let found = try await api.search("").value(as: BookList.self, errorBody: CatalogProblem.self)
            say("unexpected: an empty search found \(found.items.count) books")
        } catch {
            let problem = error.body.map { "\($0)" } ?? "no problem body"
            say("decoded API error: search \"\" → HTTP \(error.error.statusCode ?? 0), \(problem)")
        }
    }

    /// A route that needs the reader's token, added by the server's `AuthTokenAction`.
    private func favourites() async throws(Stop) {
        say("")
        do {
            let favourites = try await api.favourites().value(as: BookList.self)
            say("Favourites (token added by AuthTokenAction): " + favourites.items.map(\.title).joined(separator: ", "))
        } catch {
            throw Stop(message: "Could not load favourites: \(error.localizedDescription)")
        }
    }
}

