import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

/// A pager over a caching firing function against the loopback server's `/cache/<key>/resource`,
/// whose counters say what reached it: the stored first page shown at once and replaced when the
/// server answers, and a refresh that revalidates with the stored ETag.
@Suite struct PagerCacheIntegrationTests {
    struct Resource: Decodable, Sendable, Equatable {
        let n: Int
        let version: Int
    }

    struct Stats: Decodable, Sendable, Equatable {
        let requests: Int
        let conditional: Int
    }

    let key = uniqueKey()

    /// A new pager (as after an app launch) over `cache`: one page holding the resource.
    func pager(_ transport: TransportUnderTest, cache: HTTPCache, cacheControl: String) async throws -> Pager<Resource> {
        let call = NetCall(server: try await .loopback(), endpoint: .get("/cache/\(key)/resource", query: ["cc": cacheControl]),
                           callbackQueue: .immediate, firingFunction: .caching(in: cache, through: transport.session))
        return Pager(call: TypedCall<Resource, String>(call), strategy: .pageNumber(pageSize: 10)) { Page(items: [$0]) }
    }

    func stats() async throws -> Stats {
        let call = NetCall(server: try await .loopback(), endpoint: .get("/cache/\(key)/stats"), callbackQueue: .immediate)
        return try await withTimeout { try await call.value(as: Stats.self) }
    }

    @Test(arguments: TransportUnderTest.all)
    func storedFirstPageIsShownThenReplacedByTheChangedResource(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let first = try await pager(transport, cache: cache, cacheControl: "max-age=0")
        try await withTimeout { await first.loadNextPage() }
        let change = NetCall(server: try await .loopback(), endpoint: .post("/cache/\(key)/resource"), callbackQueue: .immediate)
        _ = try await withTimeout { try await change.response() }

        let relaunched = try await pager(transport, cache: cache, cacheControl: "max-age=0")
        let shown = await loadedStates(of: relaunched, { ($0.items.map(\.version), $0.cacheStatus?.source) }) { await relaunched.showStoredFirstPageThenRefresh() }
        #expect(shown.map(\.0) == [[], [1], [2]])
        #expect(shown.map(\.1) == [nil, .cache, .network])
        #expect(relaunched.error == nil)
        #expect(try await stats() == Stats(requests: 2, conditional: 1))
    }

    @Test(arguments: TransportUnderTest.all)
    func storedFirstPageIsRevalidatedByA304(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let first = try await pager(transport, cache: cache, cacheControl: "max-age=0")
        try await withTimeout { await first.loadNextPage() }

        let relaunched = try await pager(transport, cache: cache, cacheControl: "max-age=0")
        let shown = await loadedStates(of: relaunched, { ($0.items.map(\.version), $0.cacheStatus?.source) }) { await relaunched.showStoredFirstPageThenRefresh() }
        #expect(shown.map(\.0) == [[], [1], [1]])
        #expect(shown.map(\.1) == [nil, .cache, .revalidated])
        #expect(relaunched.items.first?.n == 1, "the body is the stored one")
        #expect(try await stats() == Stats(requests: 2, conditional: 1))
    }

    @Test(arguments: TransportUnderTest.all)
    func refreshRevalidatesAFreshPageWithTheServer(over transport: TransportUnderTest) async throws {
        let pager = try await pager(transport, cache: HTTPCache(), cacheControl: "max-age=60")
        try await withTimeout { await pager.loadNextPage() }
        try await withTimeout { await pager.refresh() }
        #expect(pager.state.cacheStatus?.source == .revalidated)
        #expect(pager.items.map(\.n) == [1])
        #expect(try await stats() == Stats(requests: 2, conditional: 1))
    }
}
