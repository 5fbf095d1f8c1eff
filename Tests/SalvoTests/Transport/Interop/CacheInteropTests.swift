import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) @testable import Salvo
import Testing

/// The cache against a server it was not written with: httpbin's `/cache` (answers `304` to
/// `If-None-Match` / `If-Modified-Since`), `/cache/{n}` (fresh for n seconds), `/etag/{etag}`
/// and `/response-headers` with the `Cache-Control`, `ETag` and `Vary` a test asks for.
///
/// httpbin keeps no count of requests, so each test counts what the cache sent to the transport
/// (``SentRequests``); the cache's clock is moved forward by hand (``CacheTime``) instead of waiting.
@Suite(.requiresHTTPBin) struct CacheInteropTests {
    let sent = SentRequests()
    let time = CacheTime()

    /// A call to httpbin's `endpoint` through `cache` over `transport`, counted by ``sent``.
    func call(_ endpoint: Endpoint, over transport: TransportUnderTest, cache: HTTPCache, policy: CachePolicy = .protocolRules) async throws -> NetCall {
        let httpbin = try await HTTPBin(over: transport)
        let counted = CountingSession(wrapping: transport.makeIsolatedSession(), sent: sent)
        return NetCall(server: httpbin.server, endpoint: endpoint, callbackQueue: .immediate,
                       firingFunction: .caching(in: cache, policy: policy, through: counted))
    }

    func fetch(_ call: NetCall) async throws -> NetworkResponse {
        try await withTimeout { try await call.response() }
    }

    @Test(arguments: TransportUnderTest.all)
    func cacheAnswersAConditionalRequestWith304AndTheStoredBodyIsRevalidated(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache(clock: time.clock)
        let cached = try await call(.get("/cache"), over: transport, cache: cache)
        let first = try await fetch(cached)
        #expect(first.cacheStatus?.source == .network)
        #expect(first.headers["ETag"] != nil && first.headers["Last-Modified"] != nil)
        // httpbin's Last-Modified is "now": a heuristic lifetime of at most 0.1 s, long gone.
        time.advance(by: 10)
        let second = try await fetch(cached)
        #expect(second.cacheStatus?.source == .revalidated)
        #expect(second.statusCode == 200)
        #expect(second.data == first.data)
        let revalidation = try #require(sent.requests.last)
        #expect(sent.requests.count == 2)
        #expect(revalidation.value(forHTTPHeaderField: "If-None-Match") == first.headers["ETag"])
        #expect(revalidation.value(forHTTPHeaderField: "If-Modified-Since") == first.headers["Last-Modified"])
    }

    @Test(arguments: TransportUnderTest.all)
    func cacheNIsAnsweredFromTheStoreForNSecondsThenFetchedAgain(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache(clock: time.clock)
        let cached = try await call(.get("/cache/60"), over: transport, cache: cache)
        let first = try await fetch(cached)
        time.advance(by: 30)
        let hit = try await fetch(cached)
        #expect(first.cacheStatus?.source == .network)
        #expect(hit.cacheStatus?.source == .cache)
        #expect(hit.cacheStatus?.isStale == false)
        #expect((hit.cacheStatus?.age ?? 0) >= 30)
        #expect(hit.data == first.data)
        #expect(sent.requests.count == 1)
        time.advance(by: 31)
        let refetched = try await fetch(cached)
        #expect(refetched.cacheStatus?.source == .network)
        #expect(sent.requests.count == 2)
    }

    @Test(arguments: TransportUnderTest.all)
    func etagIsSentBackAsIfNoneMatchAndTheServers304KeepsTheStoredBody(over transport: TransportUnderTest) async throws {
        let cached = try await call(.get("/etag/salvo-v1"), over: transport, cache: HTTPCache(clock: time.clock))
        let first = try await fetch(cached)
        let second = try await fetch(cached)
        #expect(first.cacheStatus?.source == .network)
        #expect(second.cacheStatus?.source == .revalidated)
        #expect(second.headers["ETag"] == "salvo-v1")
        #expect(second.data == first.data)
        #expect(sent.requests.count == 2)
        #expect(sent.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "salvo-v1")
    }

    @Test(arguments: TransportUnderTest.all)
    func responseHeadersCacheControlMaxAgeMakesTheSecondCallAHit(over transport: TransportUnderTest) async throws {
        let endpoint = Endpoint.get("/response-headers", query: ["Cache-Control": "max-age=60", "X-Salvo": "interop"])
        let cached = try await call(endpoint, over: transport, cache: HTTPCache(clock: time.clock))
        let first = try await fetch(cached)
        let second = try await fetch(cached)
        #expect(second.cacheStatus?.source == .cache)
        #expect(second.headers["X-Salvo"] == "interop")
        #expect(second.data == first.data)
        #expect(sent.requests.count == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func responseHeadersNoStoreIsNeverStored(over transport: TransportUnderTest) async throws {
        let endpoint = Endpoint.get("/response-headers", query: ["Cache-Control": "no-store"])
        let cached = try await call(endpoint, over: transport, cache: HTTPCache(clock: time.clock), policy: .offlineFirst)
        _ = try await fetch(cached)
        let second = try await fetch(cached)
        #expect(second.cacheStatus?.source == .network)
        #expect(sent.requests.count == 2)
    }

    @Test(arguments: TransportUnderTest.all)
    func responseHeadersETagWithNoCacheIsRevalidatedOnEveryCall(over transport: TransportUnderTest) async throws {
        // httpbin's /response-headers ignores If-None-Match: the revalidation answers 200, and the
        // new response replaces the stored one.
        let endpoint = Endpoint.get("/response-headers", query: ["Cache-Control": "no-cache", "ETag": "\"rh-1\""])
        let cached = try await call(endpoint, over: transport, cache: HTTPCache(clock: time.clock))
        _ = try await fetch(cached)
        let second = try await fetch(cached)
        #expect(second.cacheStatus?.source == .network)
        #expect(sent.requests.count == 2)
        #expect(sent.requests.first?.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(sent.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"rh-1\"")
    }

    @Test(arguments: TransportUnderTest.all)
    func responseHeadersVaryKeepsOneVariantPerRequestFieldValue(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache(clock: time.clock)
        func fetch(language: String) async throws -> CacheStatus.Source? {
            let endpoint = Endpoint.get("/response-headers", query: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
                                        headers: ["Accept-Language": language])
            return try await self.fetch(try await call(endpoint, over: transport, cache: cache)).cacheStatus?.source
        }
        #expect(try await fetch(language: "fr") == .network)
        #expect(try await fetch(language: "fr") == .cache)
        #expect(try await fetch(language: "de") == .network)
        #expect(try await fetch(language: "fr") == .cache)
        #expect(try await fetch(language: "de") == .cache)
        #expect(sent.requests.map { $0.value(forHTTPHeaderField: "Accept-Language") } == ["fr", "de"])
    }
}

/// The requests a ``CountingSession`` passed on, in order.
final class SentRequests: Sendable {
    private let list = Locked<[URLRequest]>([])

    /// What reached the transport so far.
    var requests: [URLRequest] { list.withLock { $0 } }

    func append(_ request: URLRequest) {
        list.withLock { $0.append(request) }
    }
}

/// A session that notes each request in `sent`, then hands it to the session it wraps: what the
/// cache really sent to the server.
struct CountingSession: NetworkSession {
    let wrapped: any NetworkSession
    let sent: SentRequests

    init(wrapping wrapped: any NetworkSession, sent: SentRequests) {
        self.wrapped = wrapped
        self.sent = sent
    }

    func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        sent.append(request)
        return wrapped.start(request, options: options, receiver: receiver)
    }
}

/// The cache's clock: the system's uptime plus what a test moved it forward by.
final class CacheTime: Sendable {
    private let offset = Locked<TimeInterval>(0)

    /// A clock that reads the moved time and waits as the live one does.
    var clock: NetworkClock {
        NetworkClock(sleep: { try await NetworkClock.live.sleep(for: $0) }, now: { [offset] in NetworkClock.uptime() + offset.withLock { $0 } })
    }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
