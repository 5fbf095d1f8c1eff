import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// What a CachingSession answers from the store and what it sends, over a scripted origin, with
/// time from a TestClock. The rules themselves are tabled in FreshnessTests.
@Suite struct CachingSessionTests {
    static let server = ServerConfig(host: "api.example.com")

    let time = TestClock()
    let cache: HTTPCache
    let origin: CacheOrigin

    init() {
        cache = HTTPCache(clock: time.clock)
        origin = CacheOrigin()
    }

    func fire(_ endpoint: Endpoint = .get("/item"), policy: CachePolicy = .protocolRules) async throws(NetworkError) -> NetworkResponse {
        let call = NetCall(server: Self.server, endpoint: endpoint, callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, policy: policy, through: origin.session))
        return try await call.response()
    }

    func text(_ response: NetworkResponse) -> String { String(decoding: response.data, as: UTF8.self) }

    @Test func freshResponseIsAnsweredFromTheStoreWithItsAge() async throws {
        let first = try await fire()
        time.advance(by: 10)
        let second = try await fire()
        #expect(first.cacheStatus?.source == .network)
        #expect(second.cacheStatus?.source == .cache)
        #expect(second.cacheStatus?.age == 10)
        #expect(second.headers["Age"] == "10")
        #expect(text(second) == "v1")
        #expect(origin.requests.count == 1)
    }

    @Test func everyRequestItSendsHasURLCacheOff() async throws {
        _ = try await fire()
        #expect(origin.requests.first?.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test func onlyAURLSessionWithoutAURLCacheIsTrustedToCacheNothing() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        #expect(!CachingSession.mayUseURLCache(URLSession(configuration: configuration)))
        #expect(CachingSession.mayUseURLCache(URLSession(configuration: .default)))
        #expect(CachingSession.mayUseURLCache(origin.session))
    }

    @Test func staleResponseIsRevalidatedWithItsETagAndThe304IsMerged() async throws {
        _ = try await fire()
        origin.update { $0.headers["X-Revision"] = "2" }
        time.advance(by: 61)
        let revalidated = try await fire()
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        #expect(revalidated.cacheStatus?.source == .revalidated)
        #expect(revalidated.statusCode == 200)
        #expect(text(revalidated) == "v1")
        #expect(revalidated.headers["X-Revision"] == "2")
        // The 304 renewed the entry: fresh again for another 60 seconds.
        time.advance(by: 30)
        #expect(try await fire().cacheStatus?.source == .cache)
        #expect(origin.requests.count == 2)
    }

    @Test func lastModifiedIsSentAsIfModifiedSince() async throws {
        let modified = "Mon, 23 Nov 2026 09:00:00 GMT"
        origin.update { $0.headers = ["Cache-Control": "no-cache", "Last-Modified": modified] }
        _ = try await fire()
        let second = try await fire()
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-Modified-Since") == modified)
        #expect(second.cacheStatus?.source == .revalidated)
    }

    @Test func changedResourceReplacesTheStoredOne() async throws {
        _ = try await fire()
        origin.update { $0.headers["ETag"] = "\"v2\""; $0.body = "v2" }
        time.advance(by: 61)
        let changed = try await fire()
        #expect(changed.cacheStatus?.source == .network)
        #expect(text(changed) == "v2")
        #expect(text(try await fire()) == "v2")
        #expect(origin.requests.count == 2)
    }

    @Test(arguments: ["no-store", "private, no-store"])
    func noStoreIsNeverStored(_ directive: String) async throws {
        origin.update { $0.headers["Cache-Control"] = directive }
        _ = try await fire()
        let second = try await fire()
        #expect(second.cacheStatus?.source == .network)
        #expect(origin.requests.count == 2)
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    @Test func requestNoCacheRevalidatesAFreshResponse() async throws {
        _ = try await fire()
        let reloaded = try await fire(.get("/item").header("Cache-Control", "no-cache"))
        #expect(reloaded.cacheStatus?.source == .revalidated)
        #expect(origin.requests.count == 2)
    }

    @Test func onlyIfCachedWithNothingStoredAnswers504WithoutTheNetwork() async throws {
        await #expect(throws: NetworkError.self) { try await fire(.get("/item").header("Cache-Control", "only-if-cached")) }
        #expect(origin.requests.isEmpty)
    }

    @Test func varyKeepsOneVariantPerValue() async throws {
        origin.update { $0.headers["Vary"] = "Accept-Language" }
        _ = try await fire(.get("/item").header("Accept-Language", "en"))
        origin.update { $0.body = "fr" ; $0.headers["ETag"] = "\"fr\"" }
        let french = try await fire(.get("/item").header("Accept-Language", "fr"))
        let english = try await fire(.get("/item").header("Accept-Language", "en"))
        #expect(french.cacheStatus?.source == .network)
        #expect(text(french) == "fr")
        #expect(english.cacheStatus?.source == .cache)
        #expect(text(english) == "v1")
        #expect(origin.requests.count == 2)
    }

    @Test func varyStarIsNotStored() async throws {
        origin.update { $0.headers["Vary"] = "*" }
        _ = try await fire()
        _ = try await fire()
        #expect(origin.requests.count == 2)
    }

    @Test func anotherCredentialNeverSeesAnEntryAndSignOutPurgesOnlyItsOwn() async throws {
        _ = try await fire(.get("/me").header("Authorization", "Bearer alice"))
        origin.update { $0.body = "bob" }
        let bob = try await fire(.get("/me").header("Authorization", "Bearer bob"))
        #expect(bob.cacheStatus?.source == .network)
        #expect(text(bob) == "bob")
        cache.removeEntries(signedInWith: ["Authorization": "Bearer alice"])
        _ = try await fire(.get("/me").header("Authorization", "Bearer alice"))
        #expect(try await fire(.get("/me").header("Authorization", "Bearer bob")).cacheStatus?.source == .cache)
        #expect(origin.requests.count == 3)
    }

    @Test(arguments: [("POST", 201, true), ("DELETE", 204, true), ("PUT", 500, false), ("OPTIONS", 200, false)])
    func unsafeMethodThatSucceedsInvalidatesTheURL(method: String, status: Int, invalidates: Bool) async throws {
        _ = try await fire()
        let unsafeOrigin = ScriptedSession(.status(status))
        let call = NetCall(server: Self.server, endpoint: Endpoint(method: HTTPMethod(method), path: "/item"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, through: unsafeOrigin))
        _ = try? await call.response()
        let after = try await fire()
        #expect((after.cacheStatus?.source == .network) == invalidates)
    }

    @Test func offlineFirstServesAnyStoredResponseAfterATransportError() async throws {
        _ = try await fire(policy: .offlineFirst)
        origin.update { $0.failure = .failure(.notConnectedToInternet) }
        time.advance(by: 86_400)
        let offline = try await fire(policy: .offlineFirst)
        #expect(offline.cacheStatus?.source == .staleAfterError)
        #expect(offline.cacheStatus?.isStale == true)
        #expect(offline.cacheStatus?.age == 86_400)
        #expect(text(offline) == "v1")
    }

    @Test(arguments: [500, 502, 503])
    func offlineFirstServesTheStoredResponseAfterA5xx(status: Int) async throws {
        _ = try await fire(policy: .offlineFirst)
        origin.update { $0.failure = .status(status) }
        time.advance(by: 120)
        #expect(try await fire(policy: .offlineFirst).cacheStatus?.source == .staleAfterError)
    }

    @Test func protocolRulesPassAFailureOnWithoutStaleIfError() async throws {
        _ = try await fire()
        origin.update { $0.failure = .status(503) }
        time.advance(by: 120)
        await #expect(throws: NetworkError.self) { try await fire() }
    }

    @Test func staleIfErrorServesWithinItsWindowOnly() async throws {
        origin.update { $0.headers["Cache-Control"] = "max-age=60, stale-if-error=100" }
        _ = try await fire()
        origin.update { $0.failure = .status(500) }
        time.advance(by: 150)
        #expect(try await fire().cacheStatus?.source == .staleAfterError)
        time.advance(by: 20)
        await #expect(throws: NetworkError.self) { try await fire() }
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRefreshesBehind() async throws {
        origin.update { $0.headers["Cache-Control"] = "max-age=60, stale-while-revalidate=30" }
        _ = try await fire()
        origin.update { $0.headers["ETag"] = "\"v2\""; $0.body = "v2" }
        time.advance(by: 70)
        let stale = try await fire()
        #expect(stale.cacheStatus?.source == .cache)
        #expect(stale.cacheStatus?.isStale == true)
        #expect(text(stale) == "v1")
        #expect(origin.requests.count == 2)
        #expect(text(try await fire()) == "v2")
    }

    @Test func cacheFirstServesAnyAgeAndNetworkOnlyAlwaysAsks() async throws {
        _ = try await fire()
        time.advance(by: 10_000)
        #expect(try await fire(policy: .cacheFirst).cacheStatus?.source == .cache)
        let network = try await fire(policy: .networkOnly)
        #expect(network.cacheStatus?.source == .network)
        #expect(origin.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(origin.requests.count == 2)
    }

    @Test func aStreamedCallPassesThroughUnlessThePolicyIncludesStreams() async throws {
        _ = try await fire()
        for policy in [CachePolicy.protocolRules, CachePolicy(.protocolRules, includesStreams: true)] {
            let call = NetCall(server: Self.server, endpoint: .get("/item"), callbackQueue: .immediate,
                               firingFunction: .caching(in: cache, policy: policy, through: origin.session))
            var body = Data()
            for try await chunk in call.bytes() { body.append(contentsOf: chunk) }
            #expect(String(decoding: body, as: UTF8.self) == "v1")
        }
        #expect(origin.requests.count == 2)
    }

    @Test func setCookieIsNeverStored() async throws {
        origin.update { $0.headers["Set-Cookie"] = "session=secret" }
        _ = try await fire()
        let cached = try await fire()
        #expect(cached.cacheStatus?.source == .cache)
        #expect(cached.headers["Set-Cookie"] == nil)
    }

    @Test func aTransportsRepeatedFieldsAreStoredAndServedJoinedWithoutSetCookie() async throws {
        // A transport that parses HTTP itself reports a repeated name as it came: the store keeps
        // the fields as they arrived and serves them joined, as URLSession reports them.
        let session = RepeatedFieldsSession(fields: [
            HTTPHeaders.Field(name: "Cache-Control", value: "max-age=60"),
            HTTPHeaders.Field(name: "cache-control", value: "public"),
            HTTPHeaders.Field(name: "Link", value: "</a>; rel=next"),
            HTTPHeaders.Field(name: "Set-Cookie", value: "a=1"),
            HTTPHeaders.Field(name: "set-cookie", value: "b=2"),
            HTTPHeaders.Field(name: "Content-Length", value: "2"),
            HTTPHeaders.Field(name: "LINK", value: "</z>; rel=last"),
        ])
        let call = NetCall(server: Self.server, endpoint: .get("/item"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, through: session))
        let first = try await call.response()
        time.advance(by: 5)
        let cached = try await call.response()
        #expect(first.cacheStatus?.source == .network)
        #expect(cached.cacheStatus?.source == .cache)
        #expect(cached.headers["Cache-Control"] == "max-age=60, public")
        #expect(cached.headers["link"] == "</a>; rel=next, </z>; rel=last")
        #expect(cached.headers["Set-Cookie"] == nil)
        #expect(cached.headers["Content-Length"] == "2")
        #expect(cached.headers["Age"] == "5")
        #expect(text(cached) == "ok")
        #expect(session.count.withLock { $0 } == 1)
    }
}

/// A session answering every request with a `200` whose head holds `fields` as a transport
/// parsed them, names repeated; it counts the requests it sees.
private struct RepeatedFieldsSession: NetworkSession {
    let fields: [HTTPHeaders.Field]
    let count = Locked(0)

    func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        count.withLock { $0 += 1 }
        receiver.receive(ResponseHead(statusCode: 200, fields: fields, url: request.url ?? URL(fileURLWithPath: "/")))
        receiver.receive(Data("ok".utf8))
        receiver.finish(nil)
        return FinishedSessionTask()
    }
}
