import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoDemoKit

/// The demo's configured calls fire the same way offline (shipped fixtures) and live (loopback server).
@Suite struct CatalogAPITests {
    private func environments() async throws -> [(name: String, api: CatalogAPI)] {
        let live = try CatalogEnvironment.live(baseURL: try await LoopbackServer.baseURL().absoluteString)
        return [("offline", CatalogAPI(environment: .offline)), ("live", CatalogAPI(environment: live))]
    }

    @Test func threePagesThenRefreshGiveTheSameBooksOfflineAndLive() async throws {
        var firstPages: [[SalvoDemoKit.Book]] = []
        for (name, api) in try await environments() {
            let pager = api.bookPager()
            for _ in 1...3 { await pager.loadNextPage() }
            #expect(pager.error == nil, "\(name): \(String(describing: pager.error))")
            #expect(pager.items.map(\.id) == Array(1...30), "\(name)")
            #expect(pager.hasMore, "\(name)")
            await pager.refresh()
            #expect(pager.items.map(\.id) == Array(1...10), "\(name)")
            firstPages.append(pager.items)
        }
        #expect(firstPages.count == 2 && firstPages[0] == firstPages[1])
    }

    @Test func liveUpdatesStreamTheSameFiveEventsOfflineAndLive() async throws {
        var feeds: [[CatalogUpdate]] = []
        for (name, api) in try await environments() {
            var updates: [CatalogUpdate] = []
            for try await update in api.liveUpdates() { updates.append(update) }
            #expect(updates.map(\.id) == [8, 19, 8, 1, 33], "\(name)")
            feeds.append(updates)
        }
        #expect(feeds.count == 2 && feeds[0] == feeds[1])
        #expect(feeds.first?.map(\.summary) == ["out of stock", "now 7.99", "back in stock", "now 4.50", "now 12.00"])
    }

    @Test func aCoverUploadReportsProgressToOneHundredPercentOfflineAndLive() async throws {
        let image = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-cover-\(UUID().uuidString).jpg")
        try Data(repeating: 0xAB, count: 196_608).write(to: image)
        defer { try? FileManager.default.removeItem(at: image) }
        for (name, api) in try await environments() {
            let upload = api.uploadCover(bookID: 14, image: image, caption: "First edition, 1897").transfer()
            var sent: [TransferProgress] = []
            for await progress in upload.progress where progress.direction == .upload { sent.append(progress) }
            let cover = try await upload.response.value
            #expect(cover.bytes == 196_608 && cover.id == 14 && cover.contentType == "image/jpeg", "\(name)")
            #expect(sent.allSatisfy { $0.expectedBytes != nil }, "the form's size is known even when it is sent chunked (\(name))")
            #expect(sent.filter { $0.fractionCompleted == 1 }.count == 1, "\(name)")
            #expect(sent.last?.fractionCompleted == 1, "\(name)")
            #expect(sent.map(\.completedBytes) == sent.map(\.completedBytes).sorted(), "\(name)")
            if name == "offline" {
                // 192 KiB at the offline 256 KiB/s take 0.75 s: a bar that moves, not a jump to 100%.
                #expect(sent.count >= 3, "progress moves while the mock sends the form: \(sent.map(\.completedBytes))")
            }
        }
    }

    @Test func missingBookIsAServerStatusWithTheCatalogueMessage() async throws {
        for (name, api) in try await environments() {
            do {
                _ = try await api.book(id: 999).value()
                Issue.record("\(name): book 999 exists")
            } catch {
                #expect(error.error.statusCode == 404, "\(name)")
                #expect(error.body?.message == "No book with id 999 in the catalogue.", "\(name)")
            }
        }
    }

    @Test func emptySearchDecodesTheAPIProblem() async throws {
        for (name, api) in try await environments() {
            do {
                _ = try await api.search("").value()
                Issue.record("\(name): empty search succeeded")
            } catch {
                #expect(error.error.statusCode == 422, "\(name)")
                #expect(error.body?.message == "Search text must not be empty.", "\(name)")
            }
        }
    }

    @Test func favouritesCarryTheTokenAddedByTheAuthAction() async throws {
        for (name, api) in try await environments() {
            let favourites = try await api.favourites().value()
            #expect(favourites.items.map(\.id) == [1, 8, 19, 33], "\(name)")
        }
    }

    @Test func callsCarryNoURLKnowledgeBeyondTheEnvironment() throws {
        let offline = try CatalogAPI(environment: .offline).books(page: 2).call.urlRequest()
        #expect(offline.url?.absoluteString == "https://catalog.offline/catalog/books?page=2&per_page=10")
        let live = try CatalogAPI(environment: .live(baseURL: "http://127.0.0.1:8080")).books(page: 2).call.urlRequest()
        #expect(live.url?.absoluteString == "http://127.0.0.1:8080/catalog/books?page=2&per_page=10")
    }

    @Test func verboseLoggingRedactsTheToken() async throws {
        let lines = Transcript()
        let api = CatalogAPI(environment: CatalogEnvironment.offline.logging { lines.append($0) })
        _ = try await api.favourites().value()
        #expect(lines.text.contains("Authorization: <redacted>"))
        #expect(!lines.text.contains(CatalogAPI.demoToken))
    }

    @Test func aBookNotInTheFixturesFailsNamingTheRequest() async {
        do {
            _ = try await CatalogAPI(environment: .offline).book(id: 7).value()
            Issue.record("expected a missing-fixture error")
        } catch {
            #expect(String(describing: error).contains("/catalog/books/7"))
        }
    }

    @Test func theStockFeedSendsAnUpdateForEachSubscribedBookThenClosesWith1000() async throws {
        var environment = CatalogEnvironment.offline
        let feed = MockWebSocketServer.stockFeed(interval: 0)
        environment.webSockets = .mock(feed)
        let connection = try await CatalogAPI(environment: environment).stockFeed().connect()
        try await connection.send(FeedSubscription(books: [19, 8]))
        var updates: [CatalogUpdate] = []
        for try await update in connection.messages(decoding: CatalogUpdate.self) {
            updates.append(update)
        }
        #expect(updates.map(\.id) == [19, 8])
        #expect(updates.map(\.summary) == ["out of stock", "back in stock"])
        #expect(connection.peerClose == WebSocketClose(.normalClosure, reason: "feed over"))
        #expect(feed.log.handshakes.map { $0.url?.path } == ["/catalog/feed"])
        #expect(try feed.log.sentMessages.map { try $0.decode(FeedSubscription.self) } == [FeedSubscription(books: [19, 8])])
    }

    @Test func aBookTheStockFeedDoesNotKnowIsAClose4004NamingIt() async throws {
        var environment = CatalogEnvironment.offline
        environment.webSockets = .mock(.stockFeed(interval: 0))
        let connection = try await CatalogAPI(environment: environment).stockFeed().connect()
        try await connection.send(FeedSubscription(books: [7]))
        for try await update in connection.messages(decoding: CatalogUpdate.self) {
            Issue.record("unexpected update \(update)")
        }
        #expect(connection.peerClose?.code.rawValue == 4004)
        #expect(connection.peerClose?.reason == "no book 7 in the feed")
    }
}
