import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
@_spi(Transport) @testable import Salvo
@testable import SalvoAsyncHTTPClient
import Testing

/// Which event loop an exchange runs on (``LoopAffinity``): an origin's exchanges one after
/// another on one loop, concurrent ones spread over the group; and, against the loopback server,
/// the loop a real exchange reports its end on.
@Suite struct LoopAffinityTests {
    // MARK: - The origin key

    @Test func theKeyIsTheOriginWhateverFollowsIt() throws {
        let key = try #require(LoopAffinity.key(of: "http://127.0.0.1:8080/books"))
        for sameOrigin in ["http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/authors?page=2", "http://127.0.0.1:8080?q=1", "http://127.0.0.1:8080#top"] {
            #expect(LoopAffinity.key(of: sameOrigin) == key, "\(sameOrigin)")
        }
        for otherOrigin in ["http://127.0.0.1:8081/books", "https://127.0.0.1:8080/books", "http://localhost:8080/books", "http://user@127.0.0.1:8080/books"] {
            #expect(LoopAffinity.key(of: otherOrigin) != key, "\(otherOrigin)")
        }
    }

    @Test func aStringWithoutSchemeAndAuthorityHasNoKey() {
        for noOrigin in ["", "books", "mailto:someone@example.com", "http:/x", "http:", "http:/"] {
            #expect(LoopAffinity.key(of: noOrigin) == nil, "\(noOrigin)")
        }
    }

    // MARK: - Picking loops

    /// Runs `body` with an affinity over a group of `threads` loops, and shuts the group down
    /// after it, also when a `#require` in it failed.
    private func withAffinity(threads: Int, _ body: (LoopAffinity) throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let result = Result { try body(LoopAffinity(group: group)) }
        try await group.shutdownGracefully()
        try result.get()
    }

    @Test func anOriginsExchangesOneAfterAnotherRunOnOneLoop() async throws {
        try await withAffinity(threads: 3) { affinity in
            let url = try #require(URL(string: "http://127.0.0.1:8080/books"))
            var loops: [ObjectIdentifier] = []
            for index in 0..<12 {
                let pick = affinity.start(URL(string: "http://127.0.0.1:8080/books/\(index)") ?? url)
                loops.append(ObjectIdentifier(pick.loop))
                affinity.ended(try #require(pick.origin))
            }
            #expect(Set(loops).count == 1, "sequential exchanges ran on \(Set(loops).count) loops")
            #expect(affinity.count == 1)
        }
    }

    @Test func concurrentExchangesSpreadAndTheNextAloneGoesBackToTheOriginsLoop() async throws {
        try await withAffinity(threads: 3) { affinity in
            let url = try #require(URL(string: "http://127.0.0.1:8080/books"))
            let first = affinity.start(url)
            let concurrent = (0..<6).map { _ in affinity.start(url) }
            #expect(Set(concurrent.map { ObjectIdentifier($0.loop) }).count > 1, "six exchanges in flight together all ran on one loop")
            for pick in concurrent { affinity.ended(try #require(pick.origin)) }
            affinity.ended(try #require(first.origin))
            let alone = affinity.start(url)
            #expect(alone.loop === first.loop)
            affinity.ended(try #require(alone.origin))
        }
    }

    @Test func pastItsCapacityItForgetsIdleOriginsAndKeepsThoseInFlight() async throws {
        try await withAffinity(threads: 2) { affinity in
            let busy = try #require(URL(string: "http://busy.example:1/"))
            let busyPick = affinity.start(busy)
            for port in 2...(LoopAffinity.capacity + 40) {
                affinity.ended(try #require(affinity.start(URL(string: "http://idle.example:\(port)/")).origin))
            }
            #expect(affinity.count <= LoopAffinity.capacity)
            #expect(affinity.inFlight(toOriginOf: busy) == 1)
            affinity.ended(try #require(busyPick.origin))
            // The busy origin was never forgotten: alone again, it gets its loop back.
            let again = affinity.start(busy)
            #expect(again.loop === busyPick.loop)
            affinity.ended(try #require(again.origin))
        }
    }

    @Test func aURLWithoutAnOriginStillGetsALoopAndIsNotCounted() async throws {
        try await withAffinity(threads: 2) { affinity in
            #expect(affinity.start(nil).origin == nil)
            #expect(affinity.count == 0)
        }
    }

    // MARK: - Against the loopback server

    /// Twelve requests one after another through a pool of one connection on a group of three
    /// loops: each exchange reports its end on the same loop, the loop the pool opened the
    /// connection on. Before the affinity, each exchange took the group's next loop.
    @Test func sequentialExchangesReportOnTheLoopOfTheirConnection() async throws {
        let request = try await NetCall(server: .loopback(), endpoint: .get("/echo/ok")).urlRequest()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
        var configuration = AsyncHTTPClientSession.clientConfiguration
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        // A client of the test's own, shut down before its group; nothing in between throws, so
        // both are always shut down (AsyncHTTPClient stops a process that drops a running client).
        let client = HTTPClient(eventLoopGroup: group, configuration: configuration)
        let session = AsyncHTTPClientSession(client: client)
        var ends: [(status: Int?, loop: ObjectIdentifier?)] = []
        for _ in 0..<12 {
            let receiver = LoopRecorder()
            _ = Exchange.start(request, on: session, options: ExchangeOptions(), reportingTo: receiver)
            ends.append(await receiver.ended())
        }
        let origins = session.loopAffinity.count
        try await client.shutdown()
        try await group.shutdownGracefully()
        #expect(ends.allSatisfy { $0.status == 200 }, "\(ends.map(\.status))")
        let loops = ends.compactMap(\.loop)
        #expect(loops.count == 12, "an exchange ended off the group's loops")
        #expect(Set(loops).count == 1, "twelve sequential exchanges ended on \(Set(loops).count) loops")
        #expect(origins == 1)
    }

    /// A burst of concurrent calls through the session, then calls one at a time: every call
    /// succeeds, and the origin has nothing in flight left over.
    @Test func aBurstThenOneAtATimeAllSucceed() async throws {
        let session = AsyncHTTPClientSession()
        let call = NetCall(server: try await .loopback(), endpoint: .get("/echo/ok"), firingFunction: .asyncHTTPClient(session))
        try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<16 { group.addTask { try await call.response().head?.statusCode } }
            for try await status in group { #expect(status == 200) }
        }
        for _ in 0..<4 { #expect(try await call.response().head?.statusCode == 200) }
        let url = try #require(call.urlRequest().url)
        #expect(session.loopAffinity.inFlight(toOriginOf: url) == 0, "exchanges left counted in flight")
        try await session.shutdown()
    }
}

/// Records the status an exchange ended with and the event loop it reported the end on.
private final class LoopRecorder: ResponseReceiver {
    private let state = NIOLockedValueBox<(status: Int?, loop: ObjectIdentifier?, waiter: CheckedContinuation<(Int?, ObjectIdentifier?), Never>?, done: Bool)>((nil, nil, nil, false))

    func receive(_ head: ResponseHead) {}
    func receive(_ chunk: Data) {}
    func finish(_ error: (any Error)?) { end(status: nil) }
    func finish(with head: ResponseHead?, body: Data?, error: (any Error)?) { end(status: head?.statusCode) }

    private func end(status: Int?) {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop.map(ObjectIdentifier.init)
        let waiter = state.withLockedValue { state in
            state.status = status
            state.loop = loop
            state.done = true
            return state.waiter.take()
        }
        waiter?.resume(returning: (status, loop))
    }

    func ended() async -> (Int?, ObjectIdentifier?) {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> (Int?, ObjectIdentifier?)? in
                guard state.done else {
                    state.waiter = continuation
                    return nil
                }
                return (state.status, state.loop)
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
