import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Whose entries a cache holds: the app's partition key across token renewals and cold starts,
/// the credential digest without one, and a purge that leaves nothing of the user in memory or
/// in any file of the store's folder.
@Suite struct CachePartitionTests {
    static let server = ServerConfig(host: "api.example.com")

    let origin = CacheOrigin(body: "alice's notes")
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A cache over the test's folder, as an app makes it at launch.
    func diskCache(partitionKey: String? = nil) -> HTTPCache {
        let cache = HTTPCache(store: .disk(in: folder.url))
        cache.partitionKey = partitionKey
        return cache
    }

    func fire(_ path: EndpointPath, token: String, in cache: HTTPCache, policy: CachePolicy = .offlineFirst) async throws(NetworkError) -> NetworkResponse {
        let call = NetCall(server: Self.server, endpoint: .get(path).header("Authorization", "Bearer \(token)"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, policy: policy, through: origin.session))
        return try await call.response()
    }

    /// The files under the store's folder whose bytes contain `text`.
    func files(containing text: String) throws -> [String] {
        let needle = Data(text.utf8)
        let names = FileManager.default.enumerator(atPath: folder.url.path)?.compactMap { $0 as? String } ?? []
        return try names.filter { name in
            let url = folder.url.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { return false }
            return try Data(contentsOf: url).range(of: needle) != nil
        }
    }

    @Test func aRenewedTokenStillSeesTheUsersEntriesOfflineAfterAColdStart() async throws {
        // Stale at once, so the offline read asks the network and falls back to the store.
        origin.update { $0.headers = ["Cache-Control": "max-age=0"] }
        _ = try await fire("/notes", token: "token-1", in: diskCache(partitionKey: "user-42"))
        origin.update { $0.failure = .failure(.notConnectedToInternet) }
        // A new process, offline, with the token renewed since.
        let offline = try await fire("/notes", token: "token-2", in: diskCache(partitionKey: "user-42"))
        #expect(offline.cacheStatus?.source == .staleAfterError)
        #expect(String(decoding: offline.data, as: UTF8.self) == "alice's notes")
        #expect(origin.requests.count == 2, "the offline read asked the network first")
    }

    /// The default, for apps that set no key: a changed credential sees nothing of another's.
    @Test func withoutAKeyEachCredentialIsFiledApart() async throws {
        let cache = diskCache()
        _ = try await fire("/notes", token: "token-1", in: cache)
        #expect(try await fire("/notes", token: "token-1", in: cache).cacheStatus?.source == .cache)
        #expect(try await fire("/notes", token: "token-2", in: cache).cacheStatus?.source == .network)
        #expect(origin.requests.count == 2)
    }

    @Test func anotherKeyNeverSeesTheUsersEntries() async throws {
        let cache = diskCache(partitionKey: "alice")
        _ = try await fire("/notes", token: "token-a", in: cache)
        cache.partitionKey = "bob"
        origin.update { $0.body = "bob's notes" }
        let bob = try await fire("/notes", token: "token-b", in: cache)
        #expect(bob.cacheStatus?.source == .network)
        #expect(String(decoding: bob.data, as: UTF8.self) == "bob's notes")
    }

    /// Entries filed under the key and under earlier tokens' digests (before the key was set)
    /// all go, from memory and from disk: no file under the folder keeps a byte of them.
    @Test func purgingAKeyRemovesEveryEntryOfTheUserFromMemoryAndDisk() async throws {
        let cache = diskCache()
        origin.update { $0.body = "note-before-the-key" }
        _ = try await fire("/early", token: "token-0", in: cache)
        cache.partitionKey = "user-42"
        origin.update { $0.body = "note-under-the-key" }
        _ = try await fire("/notes", token: "token-1", in: cache)
        origin.update { $0.body = "note-after-renewal" }
        _ = try await fire("/more", token: "token-2", in: cache)
        #expect(try files(containing: "note-").count == 3)

        cache.removeEntries(inPartition: "user-42")

        #expect(cache.partitionKey == nil)
        for text in ["note-before-the-key", "note-under-the-key", "note-after-renewal", "/early", "/notes", "/more"] {
            #expect(try files(containing: text).isEmpty, "\(text) is still on disk")
        }
        origin.update { $0.failure = .failure(.notConnectedToInternet) }
        cache.partitionKey = "user-42"
        for (path, token) in [("/early", "token-0"), ("/notes", "token-1"), ("/more", "token-2")] as [(EndpointPath, String)] {
            await #expect(throws: NetworkError.self, "\(path) is still in memory") { try await fire(path, token: token, in: cache) }
        }
        cache.partitionKey = nil
        await #expect(throws: NetworkError.self) { try await fire("/early", token: "token-0", in: cache) }
    }

    @Test func purgingAKeyKeepsResponsesWithoutCredentials() async throws {
        let cache = diskCache()
        let call = NetCall(server: Self.server, endpoint: .get("/public"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, through: origin.session))
        _ = try await call.response()
        cache.removeEntries(inPartition: "user-42")
        #expect(try await call.response().cacheStatus?.source == .cache)
    }

    /// An answer that left before the sign-out and lands after the purge must not bring the
    /// user's data back; once the key is set again, answers are stored again.
    @Test func anAnswerLandingAfterThePurgeIsNotStored() async throws {
        let gate = GatedSession()
        let cache = HTTPCache(store: .disk(in: folder.url))
        cache.partitionKey = "user-42"
        let call = NetCall(server: Self.server, endpoint: .get("/notes"), callbackQueue: .immediate,
                           firingFunction: .caching(in: cache, through: gate))
        async let late = call.response()
        await gate.waitForRequest()
        cache.removeEntries(inPartition: "user-42")
        gate.answer(body: "note-in-flight")
        #expect(try await late.data == Data("note-in-flight".utf8))
        #expect(try files(containing: "note-in-flight").isEmpty)

        cache.partitionKey = "user-42"
        async let next = call.response()
        await gate.waitForRequest()
        gate.answer(body: "note-after-sign-in")
        _ = try await next
        #expect(try files(containing: "note-after-sign-in").count == 1)
    }
}

/// A session that holds each request until the test answers it.
private final class GatedSession: NetworkSession {
    private struct State {
        var receiver: (any ResponseReceiver)?
        var url: URL?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        let waiter = state.withLock { state in
            state.receiver = receiver
            state.url = request.url
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        return FinishedSessionTask()
    }

    /// Returns once a request is held.
    func waitForRequest() async {
        await withCheckedContinuation { continuation in
            let isHeld = state.withLock { state in
                if state.receiver != nil { return true }
                state.waiter = continuation
                return false
            }
            if isHeld { continuation.resume() }
        }
    }

    /// Answers the held request `200` with `body`, storable for a minute.
    func answer(body: String) {
        let (receiver, url) = state.withLock { state in
            defer { state.receiver = nil }
            return (state.receiver, state.url)
        }
        receiver?.receive(ResponseHead(statusCode: 200, headers: ["Cache-Control": "max-age=60"], url: url ?? URL(fileURLWithPath: "/")))
        receiver?.receive(Data(body.utf8))
        receiver?.finish(nil)
    }
}
