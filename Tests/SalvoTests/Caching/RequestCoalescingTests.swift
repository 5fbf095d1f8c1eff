import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Identical GETs in flight at once share one exchange, and each caller keeps its own outcome
/// and cancellation; over a mock origin whose answers wait for a TestClock.
@Suite struct RequestCoalescingTests {
    static let server = ServerConfig(host: "api.example.com")

    let time = TestClock()
    let sent = Locked(0)
    let cache: HTTPCache

    init() {
        cache = HTTPCache(clock: time.clock)
    }

    /// A call to `endpoint` whose answer (`no-store`, so nothing is answered from the store) arrives a second after it is sent.
    func call(_ endpoint: Endpoint = .get("/item"), coalescing: Bool = true) -> NetCall {
        let sent = sent
        let origin = MockSession(clock: time.clock) { _ in
            sent.withLock { $0 += 1 }
            return MockResponse.text("shared", headers: ["Cache-Control": "no-store"]).delayed(by: 1)
        }
        let policy = CachePolicy(.protocolRules, coalescesRequests: coalescing)
        return NetCall(server: Self.server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .caching(in: cache, policy: policy, through: origin))
    }

    @Test func identicalGETsInFlightShareOneExchangeAndEachGetsItsOwnResponse() async throws {
        let calls = (0..<5).map { _ in call() }
        async let responses = withThrowingTaskGroup(of: NetworkResponse.self) { group in
            for call in calls { group.addTask { try await call.response() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await time.waitForSleepers(1))
        time.advance(by: 1)
        let all = try await responses
        #expect(all.count == 5)
        #expect(all.allSatisfy { String(decoding: $0.data, as: UTF8.self) == "shared" })
        #expect(all.filter { $0.cacheStatus?.coalescingKey != nil }.count == 4)
        #expect(all.compactMap { $0.cacheStatus?.coalescingKey }.allSatisfy { $0 == "GET https://api.example.com/item" })
        #expect(sent.withLock { $0 } == 1)
    }

    @Test func withoutCoalescingEachCallSendsItsOwn() async throws {
        let calls = (0..<3).map { _ in call(coalescing: false) }
        async let responses = withThrowingTaskGroup(of: NetworkResponse.self) { group in
            for call in calls { group.addTask { try await call.response() } }
            return try await group.reduce(into: 0) { count, _ in count += 1 }
        }
        #expect(await time.waitForSleepers(3))
        time.advance(by: 1)
        #expect(try await responses == 3)
        #expect(sent.withLock { $0 } == 3)
    }

    @Test func differentHeadersOrCredentialsAreNeverShared() async throws {
        let calls = [call(), call(.get("/item").header("Accept-Language", "fr")), call(.get("/item").header("Authorization", "Bearer x"))]
        async let responses = withThrowingTaskGroup(of: NetworkResponse.self) { group in
            for call in calls { group.addTask { try await call.response() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await time.waitForSleepers(3))
        time.advance(by: 1)
        #expect(try await responses.allSatisfy { $0.cacheStatus.map { $0.coalescingKey == nil } == true })
        #expect(sent.withLock { $0 } == 3)
    }

    @Test func cancellingOneCallerLeavesTheOthersAndTheLastCancelsTheExchange() async throws {
        let first = call().fire(), second = call().fire()
        #expect(await time.waitForSleepers(1))
        first.cancel()
        #expect(time.sleeperCount == 1) // the exchange still waits for its answer
        // The third joins synchronously (fire() reaches the session before it returns).
        let received = Locked<String?>(nil)
        var third = call()
        third.responder.dataHandler = { data in received.withLock { $0 = String(decoding: data, as: UTF8.self) } }
        third.fire()
        second.cancel()
        time.advance(by: 1)
        #expect(await eventually { received.withLock { $0 } == "shared" })
        #expect(sent.withLock { $0 } == 1)
        // Everyone left: the next caller starts a new exchange.
        let last = call().fire()
        #expect(await time.waitForSleepers(1))
        last.cancel()
        #expect(await eventually { time.sleeperCount == 0 })
        #expect(sent.withLock { $0 } == 2)
    }

    @Test func aCallWithABodyIsNeverCoalesced() async throws {
        let posts = (0..<2).map { _ in call(.post("/item", body: .text("x"))) }
        async let responses = withThrowingTaskGroup(of: Int.self) { group in
            for post in posts { group.addTask { _ = try await post.response(); return 1 } }
            return try await group.reduce(into: 0) { $0 += $1 }
        }
        #expect(await time.waitForSleepers(2))
        time.advance(by: 1)
        #expect(try await responses == 2)
        #expect(sent.withLock { $0 } == 2)
    }
}
