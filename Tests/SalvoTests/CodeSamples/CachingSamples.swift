import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

// The code in Docs/Caching.md, kept here so it cannot rot. Namespaced so that its names do not
// clash with other guides' samples.
enum CachingGuide {
    struct Book: Codable, Sendable {
        let id: Int
        let title: String
    }

    static let server = ServerConfig(host: "api.example.com")
    static let books = [Book(id: 1, title: "Dune")]

    /// Where an app keeps its caches.
    static func appCachesFolder() -> URL {
        let cachesFolder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        return cachesFolder
    }

    /// "Turning it on" and "Policies", over a mock origin.
    static func turningItOn(cachesFolder: URL) async throws -> (CacheStatus.Source?, String) {
        let cache = HTTPCache(store: .disk(in: cachesFolder.appendingPathComponent("api")))
        var call = NetCall(server: server, endpoint: .get("/books"))
        call.firingFunction = .caching(in: cache)                         // RFC 9111 rules
        call.firingFunction = .caching(in: cache, through: MockSession { _ in .json(books) })
        call.firingFunction = .caching(in: cache, through: MockSession { _ in .json(books, headers: ["Cache-Control": "max-age=60"]) })
        _ = try await call.response()
        let response = try await call.response()
        let source = response.cacheStatus?.source                         // .network, .cache, .revalidated, .staleAfterError

        var feedCall = call
        feedCall.firingFunction = .caching(in: cache, policy: .offlineFirst)
        feedCall.firingFunction = .caching(in: cache, policy: .offlineFirst, through: MockSession { _ in .failure(.notConnectedToInternet) })
        feedCall.endpoint = .get("/books").header("Cache-Control", "no-cache")
        var banner = ""
        let feed = try await feedCall.response()
        if feed.cacheStatus?.source == .staleAfterError {
            banner = "Offline: showing what was loaded \(Int(feed.cacheStatus?.age ?? 0)) s ago"
        }
        let token = "token"
        cache.removeEntries(signedInWith: ["Authorization": "Bearer \(token)"])
        call.firingFunction = .caching(in: cache, policy: CachePolicy(.protocolRules, coalescesRequests: true))
        return (source, banner)
    }

    struct User { let id: String }

    /// "Whose data": the partition key at sign-in, a renewed token served offline, the purge at sign-out.
    static func partitionKey(cachesFolder: URL, user: User) async throws -> (afterRenewal: CacheStatus.Source?, afterSignOut: CacheStatus.Source?) {
        let cache = HTTPCache(store: .disk(in: cachesFolder.appendingPathComponent("api")))
        cache.partitionKey = user.id                  // at sign-in, and at launch
        var call = NetCall(server: server, endpoint: .get("/books").header("Authorization", "Bearer token-1"))
        call.firingFunction = .caching(in: cache, policy: .offlineFirst, through: MockSession { _ in .json(books) })
        _ = try await call.response()
        // Renewed, and offline.
        call.endpoint = .get("/books").header("Authorization", "Bearer token-2")
        call.firingFunction = .caching(in: cache, policy: .offlineFirst, through: MockSession { _ in .failure(.notConnectedToInternet) })
        let renewed = try await call.response()
        // At sign-out:
        cache.removeEntries(inPartition: user.id)
        cache.partitionKey = user.id                  // signed in again: nothing of before is left
        let signedOut = try? await call.response()
        return (renewed.cacheStatus?.source, signedOut?.cacheStatus?.source)
    }

    /// "Paging" (and Docs/Paging.md's "Cached pages"): the stored first page at once, then the server's.
    static func cachedPager(cache: HTTPCache, origin: MockSession) async -> Pager<Book> {
        var booksCall = NetCall(server: server, endpoint: .get("/books"))
        booksCall.firingFunction = .caching(in: cache, policy: .offlineFirst)
        booksCall.firingFunction = .caching(in: cache, policy: .offlineFirst, through: origin)
        let pager = Pager(call: booksCall, strategy: .pageNumber(pageSize: 20), decoder: .array(), id: \Book.id)
        await pager.showStoredFirstPageThenRefresh()
        print(pager.state.cacheStatus?.source ?? .network)   // .revalidated (a 304), or .network
        return pager
    }
}

@Suite struct CachingSamplesTests {
    @Test func theGuidesSamplesAnswerFromTheStoreAndOffline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-guide-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (source, banner) = try await CachingGuide.turningItOn(cachesFolder: folder)
        #expect(source == .cache)
        #expect(banner.hasPrefix("Offline: showing what was loaded"))
    }

    @Test func thePartitionKeySampleServesARenewedTokenOfflineAndThePurgeLeavesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-guide-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = try await CachingGuide.partitionKey(cachesFolder: folder, user: CachingGuide.User(id: "user-42"))
        #expect(sources.afterRenewal == .staleAfterError)
        #expect(sources.afterSignOut == nil)
    }

    @Test func theCachedPagerSampleShowsTheStoredPageThenTheServersAnswer() async throws {
        let cache = HTTPCache()
        let origin = MockSession { _ in .json(CachingGuide.books, headers: ["ETag": "\"b1\""]) }
        let opened = await CachingGuide.cachedPager(cache: cache, origin: origin)
        #expect(opened.state.cacheStatus?.source == .network)
        let reopened = await CachingGuide.cachedPager(cache: cache, origin: MockSession { request in
            request.request.value(forHTTPHeaderField: "If-None-Match") == "\"b1\"" ? .status(304) : .status(500)
        })
        #expect(reopened.state.cacheStatus?.source == .revalidated)
        #expect(reopened.items.map(\.title) == ["Dune"])
    }
}
