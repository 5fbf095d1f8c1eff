import Foundation
import Salvo
import SalvoDemoKit

/// Fires the catalogue's calls and tells what happened. It knows no URL: only `CatalogAPI`.
struct CatalogTour {
    let api: CatalogAPI
    /// The catalogue's server as the cache step reaches it; that step takes it away.
    let origin: SwitchableOrigin
    let say: @Sendable (String) -> Void
    /// Draws `line` over the previous one (a progress bar); `say` ends it.
    let redraw: @Sendable (String) -> Void

    /// Why the tour stopped early.
    struct Stop: Error {
        let message: String
    }

    func run() async throws(Stop) {
        try await pages()
        try await serverGone()
        try await observedList()
        await bookThatDoesNotExist()
        await emptySearch()
        try await favourites()
        try await coverUpload()
        try await liveUpdates()
        try await stockFeed()
    }

    /// A multipart upload read from disk as it is sent, with a progress bar from `transfer()`.
    private func coverUpload() async throws(Stop) {
        say("")
        let image = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-demo-dracula-cover.jpg")
        do {
            try Data((0..<196_608).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: image)
        } catch {
            throw Stop(message: "Could not write the cover to upload: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: image) }
        let upload = api.uploadCover(bookID: 14, image: image, caption: "First edition, 1897").transfer()
        for await progress in upload.progress where progress.direction == .upload {
            redraw("Cover upload " + Self.bar(progress))
        }
        do {
            let cover = try await upload.response.value
            say("")
            say("  the catalogue received \(cover.fileName) (\(cover.contentType), \(cover.bytes) bytes) for book \(cover.id): \"\(cover.caption)\"")
        } catch {
            say("")
            throw Stop(message: "Could not upload the cover: \(error)")
        }
    }

    /// `[##########----------]  50 %  96 of 192 KiB`
    static func bar(_ progress: TransferProgress, width: Int = 24) -> String {
        let fraction = progress.fractionCompleted ?? 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let total = progress.expectedBytes.map { " of \($0 / 1024) KiB" } ?? ""
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + String(format: "%3d %%", Int((fraction * 100).rounded(.down))) + "  \(progress.completedBytes / 1024)\(total)"
    }

    /// Server-Sent Events: the catalogue's live updates, each decoded as it arrives.
    private func liveUpdates() async throws(Stop) {
        say("")
        say("Live updates (Server-Sent Events, replayed offline at their recorded pace):")
        do {
            for try await update in api.liveUpdates() {
                say("  \(update.title): \(update.summary)")
            }
        } catch {
            throw Stop(message: "Live updates stopped: \(error)")
        }
    }

    /// A WebSocket: the stock feed, subscribed with a typed message and read as typed updates.
    private func stockFeed() async throws(Stop) {
        say("")
        say("Stock feed (a WebSocket; a scripted mock peer, on a timer, as an offline app or a test would use):")
        do {
            let connection = try await api.stockFeed().connect()
            try await connection.send(FeedSubscription(books: [8, 19, 1]))
            for try await update in connection.messages(decoding: CatalogUpdate.self) {
                say("  \(update.title): \(update.summary)")
            }
            say("  the feed closed: \(connection.peerClose.map { "\($0.code) \($0.reason)" } ?? "without a close frame")")
        } catch {
            throw Stop(message: "The stock feed stopped: \(error)")
        }
    }

    /// Three pages through the pager, then a pull-to-refresh.
    private func pages() async throws(Stop) {
        let pager = api.bookPager()
        say("Books, three pages of \(CatalogAPI.pageSize):")
        for _ in 1...3 {
            await pager.loadNextPage()
            if let error = pager.error { throw Stop(message: "Could not load the catalogue: \(error)") }
        }
        for (index, book) in pager.items.enumerated() {
            say(String(format: "  %2d. ", index + 1) + "\(book.title) — \(book.author) (\(book.year))")
        }
        say("  \(pager.state.pageCount) pages, \(pager.items.count) books, more to load: \(pager.hasMore ? "yes" : "no")")

        await pager.refresh()
        if let error = pager.error { throw Stop(message: "Could not refresh: \(error)") }
        say("")
        say("Pull to refresh: page 1 reloaded and replaced the list → \(pager.items.count) books, first \"\(pager.items.first?.title ?? "-")\"")
    }

    /// The catalogue with the server gone: page 1 once through an offline-first cache, then the
    /// server taken away and page 1 again, answered from the cache and flagged as such.
    private func serverGone() async throws(Stop) {
        var cached = api
        cached.environment.firing = .caching(in: HTTPCache(store: .memory()), policy: .offlineFirst, through: origin)
        say("")
        do {
            let online = try await cached.books(page: 1).response()
            origin.isReachable = false
            defer { origin.isReachable = true }
            let offline = try await cached.books(page: 1).response()
            say("Offline-first cache: page 1 came from the \(online.cacheStatus?.source.rawValue ?? "network") and was stored; then the server went away")
            say("  and the catalogue was served from the cache (\(offline.cacheStatus?.description ?? "no cache status")): "
                + "\(offline.value.items.count) books, first \"\(offline.value.items.first?.title ?? "-")\"")
        } catch {
            throw Stop(message: "The cache did not serve the catalogue with the server gone: \(error)")
        }
    }

    /// The same pager behind `PagingModel`, the `@Observable` model a SwiftUI list holds.
    @MainActor private func observedList() async throws(Stop) {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        let list = ObservedBookList(pager: api.bookPager())
        let shown = await list.run()
        if let error = list.error { throw Stop(message: "Could not load the list: \(error)") }
        say("")
        say("PagingModel, the @Observable model a SwiftUI List holds: " + shown.joined(separator: "; "))
        // Only the items: loading flags of a load too quick to show (a replayed fixture) may be skipped.
        say("  withObservationTracking saw the items change \(list.changes["items", default: 0]) times: one redraw per list shown")
    }

    /// The callback API on the main actor: a view model attaches its own methods; the 404's
    /// `{"message": …}` arrives decoded as `CatalogProblem`.
    private func bookThatDoesNotExist() async {
        let shown = await BookViewModel().open(api.book(id: 999))
        say("")
        say("error handler: book 999 → \(shown)")
    }

    /// The async API with a typed error body: the 422's `{"message": …}` decoded as `CatalogProblem`.
    private func emptySearch() async {
        say("")
        do {
            let found = try await api.search("").value()
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
            let favourites = try await api.favourites().response()
            say("Favourites (token added by AuthTokenAction, HTTP \(favourites.statusCode ?? 0)): "
                + favourites.value.items.map(\.title).joined(separator: ", "))
        } catch {
            throw Stop(message: "Could not load favourites: \(error)")
        }
    }
}

