import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// The cache over every transport, against the loopback server's `/cache/<key>/…` resource, whose
/// own counters say what reached it: fresh answers, 304 revalidation, the server gone
/// (offline-first), a 500 under `stale-if-error`, 100 identical GETs coalesced, a user switch,
/// and invalidation by a POST.
@Suite struct CacheIntegrationTests {
    struct Resource: Decodable, Sendable, Equatable {
        let n: Int
        let version: Int
        let lang: String?
    }

    struct Stats: Decodable, Sendable {
        let requests: Int
        let conditional: Int
    }

    let key = uniqueKey()

    func call(
        _ transport: TransportUnderTest,
        cache: HTTPCache,
        policy: CachePolicy = .protocolRules,
        query: KeyValuePairs<String, String> = [:],
        headers: HTTPHeaders = [:]
    ) async throws -> NetCall {
        NetCall(server: try await .loopback(), endpoint: .get("/cache/\(key)/resource", query: query, headers: headers),
                callbackQueue: .immediate, firingFunction: .caching(in: cache, policy: policy, through: transport.session))
    }

    func fetch(_ call: NetCall) async throws -> (Resource, CacheStatus?) {
        let response = try await withTimeout { try await call.response() }
        return (try JSONDecoder().decode(Resource.self, from: response.data), response.cacheStatus)
    }

    func stats() async throws -> Stats {
        let call = NetCall(server: try await .loopback(), endpoint: .get("/cache/\(key)/stats"), callbackQueue: .immediate)
        return try await withTimeout { try await call.value(as: Stats.self) }
    }

    func configure(fail: String) async throws {
        let call = NetCall(server: try await .loopback(), endpoint: .post("/cache/\(key)/config", query: ["fail": fail]), callbackQueue: .immediate)
        _ = try await withTimeout { try await call.response() }
    }

    @Test(arguments: TransportUnderTest.all)
    func aFreshResponseIsAnsweredWithoutTheServer(over transport: TransportUnderTest) async throws {
        let cached = try await call(transport, cache: HTTPCache())
        let (first, firstStatus) = try await fetch(cached)
        let (second, secondStatus) = try await fetch(cached)
        #expect(first == second)
        #expect(firstStatus?.source == .network)
        #expect(secondStatus?.source == .cache)
        #expect(try await stats().requests == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func aStoredResponseKeepsItsFieldsButSetCookie(over transport: TransportUnderTest) async throws {
        let cached = try await call(transport, cache: HTTPCache(), query: ["cookie": "session=secret"])
        let network = try await withTimeout { try await cached.response() }
        let stored = try await withTimeout { try await cached.response() }
        #expect(network.head?.headers["Set-Cookie"] == "session=secret")
        #expect(stored.cacheStatus?.source == .cache)
        #expect(stored.head?.headers["Set-Cookie"] == nil)
        #expect(stored.head?.headers["Cache-Control"] == "max-age=60")
        #expect(stored.head?.headers["ETag"] == network.head?.headers["ETag"])
        #expect(stored.data == network.data)
    }

    @Test(arguments: TransportUnderTest.all)
    func aStaleResponseIsRevalidatedByA304(over transport: TransportUnderTest) async throws {
        let cached = try await call(transport, cache: HTTPCache(), query: ["cc": "max-age=0"])
        let (first, _) = try await fetch(cached)
        let (second, status) = try await fetch(cached)
        #expect(status?.source == .revalidated)
        #expect(second == first)
        let stats = try await stats()
        #expect((stats.requests, stats.conditional) == (2, 1))
    }

    @Test(arguments: TransportUnderTest.all)
    func offlineFirstServesTheStoredResponseWhenTheServerIsGone(over transport: TransportUnderTest) async throws {
        let cached = try await call(transport, cache: HTTPCache(), policy: .offlineFirst, query: ["cc": "max-age=0"])
        let (stored, _) = try await fetch(cached)
        try await configure(fail: "drop")
        let (offline, status) = try await fetch(cached)
        #expect(offline == stored)
        #expect(status?.source == .staleAfterError)
        #expect(status?.isStale == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func a500UnderStaleIfErrorServesTheStoredResponse(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let cached = try await call(transport, cache: cache, query: ["cc": "max-age=0, stale-if-error=600"])
        // The same resource stored without stale-if-error: its 500 reaches the caller.
        let strict = try await call(transport, cache: cache, query: ["cc": "max-age=0"])
        let (stored, _) = try await fetch(cached)
        _ = try await fetch(strict)
        try await configure(fail: "500")
        let (served, status) = try await fetch(cached)
        #expect(served == stored)
        #expect(status?.source == .staleAfterError)
        await #expect(throws: NetworkError.self) { try await withTimeout { try await strict.response() } }
    }

    @Test(arguments: TransportUnderTest.all)
    func aHundredIdenticalGETsInFlightAreOneRequest(over transport: TransportUnderTest) async throws {
        let cached = try await call(transport, cache: HTTPCache(), policy: CachePolicy(.protocolRules, coalescesRequests: true), query: ["cc": "no-store", "delay": "1"])
        let statuses = try await withTimeout(30) {
            try await withThrowingTaskGroup(of: CacheStatus?.self) { group in
                for _ in 0..<100 { group.addTask { try await cached.response().cacheStatus } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.count == 100)
        #expect(try await stats().requests == 1)
        #expect(statuses.filter { $0?.coalescingKey != nil }.count == 99)
    }

    @Test(arguments: TransportUnderTest.all)
    func aUserSwitchNeverSeesTheOtherUsersEntries(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let alice = try await call(transport, cache: cache, headers: ["Authorization": "Bearer alice"])
        let bob = try await call(transport, cache: cache, headers: ["Authorization": "Bearer bob"])
        let (aliceFirst, _) = try await fetch(alice)
        let (bobFirst, bobStatus) = try await fetch(bob)
        #expect(bobStatus?.source == .network)
        #expect(bobFirst.n != aliceFirst.n)
        cache.removeEntries(signedInWith: ["Authorization": "Bearer alice"])
        #expect(try await fetch(alice).1?.source == .network)
        #expect(try await fetch(bob).1?.source == .cache)
        #expect(try await stats().requests == 3)
    }

    @Test(arguments: TransportUnderTest.all)
    func aSuccessfulPOSTInvalidatesTheStoredResponse(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let cached = try await call(transport, cache: cache)
        let (before, _) = try await fetch(cached)
        let post = NetCall(server: try await .loopback(), endpoint: .post("/cache/\(key)/resource"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, through: transport.session))
        _ = try await withTimeout { try await post.response() }
        let (after, status) = try await fetch(cached)
        #expect(status?.source == .network)
        #expect(after.version == before.version + 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func varyKeepsAVariantPerLanguage(over transport: TransportUnderTest) async throws {
        let cache = HTTPCache()
        let english = try await call(transport, cache: cache, query: ["vary": "Accept-Language"], headers: ["Accept-Language": "en"])
        let french = try await call(transport, cache: cache, query: ["vary": "Accept-Language"], headers: ["Accept-Language": "fr"])
        #expect(try await fetch(english).0.lang == "en")
        #expect(try await fetch(french).0.lang == "fr")
        let (again, status) = try await fetch(english)
        #expect(again.lang == "en")
        #expect(status?.source == .cache)
        #expect(try await stats().requests == 2)
    }

    @Test(arguments: TransportUnderTest.all)
    func aDiskCacheServesAfterTheProcessForgetsItsMemory(over transport: TransportUnderTest) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-cache-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (stored, _) = try await fetch(try await call(transport, cache: HTTPCache(store: .disk(in: folder))))
        // A new cache over the same folder stands for the next launch.
        let (served, status) = try await fetch(try await call(transport, cache: HTTPCache(store: .disk(in: folder))))
        #expect(served == stored)
        #expect(status?.source == .cache)
        #expect(try await stats().requests == 1)
    }

    /// A user whose token the server expires mid-session: the next call gets a `401`, the
    /// renewal action asks `/auth/<key>/refresh` for a new token, and the call succeeds. With the
    /// user's id as the partition key, a cold start offline still serves what was stored under
    /// the old token; the sign-out purge then leaves no byte of the user's responses in the folder,
    /// including what was stored under a token before the key was set.
    @Test(arguments: TransportUnderTest.all)
    func aTokenRenewedAfterA401StillSeesTheUsersEntriesOfflineAndThePurgeLeavesNothing(over transport: TransportUnderTest) async throws {
        struct TokenReply: Decodable, Sendable { let token: String }
        struct Protected: Decodable, Sendable { let token: String }
        let folder = try TemporaryFolder()
        let token = Locked("token-1")
        var configured = try await ServerConfig.loopback()
        let refreshServer = configured
        let key = key
        configured.actions = [
            TokenRenewalAction { [refreshServer] in
                let reply = try await NetCall(server: refreshServer, endpoint: .post("/auth/\(key)/refresh"), firingFunction: transport.firing).value(as: TokenReply.self)
                token.withLock { $0 = reply.token }
            },
            AuthTokenAction(for: configured) { token.withLock { $0 } },
        ]
        configured.requiresAuthentication = true
        let server = configured
        func get(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], in cache: HTTPCache) -> NetCall {
            NetCall(server: server, endpoint: .get(path, query: query), callbackQueue: .immediate,
                    firingFunction: .caching(in: cache, policy: .offlineFirst, through: transport.session))
        }

        let cache = HTTPCache(store: .disk(in: folder.url))
        let beforeTheKey = get("/echo/\(key)/note-before-the-key", in: cache)
        _ = try await withTimeout { try await beforeTheKey.response() }
        cache.partitionKey = "user-\(key)"
        let (stored, _) = try await fetch(get("/cache/\(key)/resource", query: ["cc": "max-age=0"], in: cache))
        let underTheKey = get("/echo/\(key)/note-under-the-key", in: cache)
        _ = try await withTimeout { try await underTheKey.response() }

        // The server moves on to a new token: the next call is refused once and renews.
        _ = try await withTimeout { try await NetCall(server: refreshServer, endpoint: .post("/auth/\(key)/refresh"), firingFunction: transport.firing).response() }
        let renewed = try await withTimeout { try await NetCall(server: server, endpoint: .get("/auth/\(key)/protected"), firingFunction: transport.firing).value(as: Protected.self) }
        #expect(renewed.token == "token-3")
        #expect(token.withLock { $0 } == "token-3")

        // The next launch, offline, with the renewed token: the stored response is stale, so the
        // network is asked first and the store answers after it fails.
        try await configure(fail: "drop")
        let relaunched = HTTPCache(store: .disk(in: folder.url))
        relaunched.partitionKey = "user-\(key)"
        let (served, status) = try await fetch(get("/cache/\(key)/resource", query: ["cc": "max-age=0"], in: relaunched))
        #expect(status?.source == .staleAfterError)
        #expect(served == stored)

        func filesHoldingTheUsersResponses() throws -> [String] {
            try folder.fileNames().filter { try Data(contentsOf: folder.url.appendingPathComponent($0)).range(of: Data(key.utf8)) != nil }
        }
        #expect(try filesHoldingTheUsersResponses().count == 3)
        relaunched.removeEntries(inPartition: "user-\(key)")
        #expect(try filesHoldingTheUsersResponses().isEmpty)
        relaunched.partitionKey = "user-\(key)"
        let afterThePurge = get("/cache/\(key)/resource", query: ["cc": "max-age=0"], in: relaunched)
        await #expect(throws: (any Error).self, "nothing is served offline after the purge") { try await fetch(afterThePurge) }
    }
}
