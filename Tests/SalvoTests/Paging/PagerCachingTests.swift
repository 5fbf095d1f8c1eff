import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// A pager over a caching firing function, with a scripted origin and a TestClock: the stored
/// first page shown at once and replaced when the server answers, and a refresh that revalidates
/// with the stored validators rather than answering from the store or refetching.
@Suite struct PagerCachingTests {
    let time = TestClock()
    let cache: HTTPCache
    let origin = CacheOrigin(headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""], body: Self.page(1...2))

    init() {
        cache = HTTPCache(clock: time.clock)
    }

    static func page(_ ids: ClosedRange<Int>) -> String {
        "[" + ids.map { #"{"id":\#($0),"name":"Item \#($0)"}"# }.joined(separator: ",") + "]"
    }

    /// A new pager (as after an app launch) over the shared cache.
    func pager() -> Pager<ListItem> {
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/items"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, through: origin.session))
        return Pager(call: call, strategy: .pageNumber(pageSize: 10), decoder: .array(), id: \ListItem.id)
    }

    @Test func storedFirstPageIsShownAtOnceThenReplacedByTheServersNewPage() async throws {
        await pager().loadNextPage()
        origin.update { $0.body = Self.page(1...3); $0.headers["ETag"] = "\"v2\"" }
        time.advance(by: 120)
        let relaunched = pager()
        let shown = await loadedStates(of: relaunched, { ($0.items.map(\.id), $0.cacheStatus?.source) }) { await relaunched.showStoredFirstPageThenRefresh() }
        #expect(shown.map(\.0) == [[], [1, 2], [1, 2, 3]])
        #expect(shown.map(\.1) == [nil, .cache, .network])
        #expect(relaunched.error == nil)
        // The stored page did not reach the server; the refresh was conditional on its ETag.
        #expect(origin.requests.count == 2)
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    }

    @Test func storedFirstPageStaysWhenTheServerAnswers304() async throws {
        await pager().loadNextPage()
        time.advance(by: 120)
        let relaunched = pager()
        let shown = await loadedStates(of: relaunched, { ($0.items.map(\.id), $0.cacheStatus?.source) }) { await relaunched.showStoredFirstPageThenRefresh() }
        #expect(shown.map(\.0) == [[], [1, 2], [1, 2]])
        #expect(shown.map(\.1) == [nil, .cache, .revalidated])
        #expect(relaunched.state.cacheStatus?.isStale == false)
        #expect(origin.requests.count == 2)
    }

    @Test func withNothingStoredOnlyTheServersPageIsShownAndNoErrorIsReported() async throws {
        let pager = pager()
        let shown = await loadedStates(of: pager, { ($0.items.map(\.id), $0.cacheStatus?.source) }) { await pager.showStoredFirstPageThenRefresh() }
        #expect(Set(shown.map(\.0)) == [[], [1, 2]], "nothing but the server's page is shown")
        #expect(shown.last?.0 == [1, 2])
        #expect(shown.last?.1 == .network)
        #expect(pager.error == nil)
        #expect(origin.requests.count == 1)
    }

    @Test func refreshOfACachedPageRevalidatesEvenWhileTheStoredPageIsFresh() async throws {
        let pager = pager()
        await pager.loadNextPage()
        await pager.refresh()
        #expect(pager.state.cacheStatus?.source == .revalidated)
        #expect(pager.items.map(\.id) == [1, 2])
        #expect(origin.requests.count == 2)
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        #expect(origin.requests.last?.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
    }

    @Test func refreshWithoutACacheSendsNoCacheControl() async throws {
        let requests = Locked<[URLRequest]>([])
        let firing = FiringFunction.mock { request in
            requests.withLock { $0.append(request.request) }
            return .json([ListItem(id: 1, name: "Item 1")])
        }
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/items"), firingFunction: firing)
        let pager = Pager(call: call, strategy: .pageNumber(pageSize: 10), decoder: .array(), id: \ListItem.id)
        await pager.loadNextPage()
        await pager.refresh()
        #expect(pager.state.cacheStatus == nil)
        #expect(requests.withLock { $0.map { $0.value(forHTTPHeaderField: "Cache-Control") } } == [nil, nil])
    }

    @Test func storedFirstPageDoesNotReplaceItemsAlreadyLoaded() async throws {
        let pager = pager()
        await pager.loadNextPage()
        origin.update { $0.body = Self.page(5...6); $0.headers["ETag"] = "\"v2\"" }
        time.advance(by: 120)
        let shown = await loadedStates(of: pager, { ($0.items.map(\.id), $0.cacheStatus?.source) }) { await pager.showStoredFirstPageThenRefresh() }
        #expect(shown.map(\.0) == [[1, 2], [5, 6]])
    }
}
