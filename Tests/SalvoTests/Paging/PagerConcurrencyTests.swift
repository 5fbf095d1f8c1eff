import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// Races between loads, refreshes, cancellation and many callers; CI also runs it under TSan.
@Suite struct PagerConcurrencyTests {
    @Test(arguments: PagedList.allCases)
    func refreshWhilePage4IsInFlightCancelsItAndReplacesTheItems(_ list: PagedList) async throws {
        let server = FakeListServer(.init(holdPage: 4))
        let pager = list.pager(server: .fakeLists, firing: server.firing)
        for _ in 1...3 { await pager.loadNextPage() }
        #expect(pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1))
        #expect(server.heldCount == 1 && pager.isLoading)

        await pager.refresh()
        #expect(pager.items.map(\.id) == Array(1...10))
        #expect(pager.state.pageCount == 1 && !pager.isLoading && pager.hasMore)
        server.release()
        #expect(pager.items.map(\.id) == Array(1...10))
        await pager.loadNextPage()
        #expect(pager.items.map(\.id) == Array(1...20))
    }

    @Test(arguments: PagedList.allCases)
    func lateResultOfACancelledPageIsDiscarded(_ list: PagedList) async throws {
        let server = FakeListServer(.init(holdPage: 4))
        let pager = list.pager(server: .fakeLists, firing: server.firingIgnoringCancellation)
        for _ in 1...3 { await pager.loadNextPage() }
        #expect(pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1))
        await pager.refresh()
        server.release()
        #expect(server.heldCount == 0)
        #expect(pager.items.map(\.id) == Array(1...10))
        #expect(pager.state.pageCount == 1)
    }

    @Test func refreshKeepsTheOldItemsVisibleUntilTheFirstPageArrives() async throws {
        let server = FakeListServer(.init(holdRequests: [4]))
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        for _ in 1...3 { await pager.loadNextPage() }
        let refresh = Task { await pager.refresh() }
        try await waitUntil { server.heldCount == 1 }
        let during = pager.state
        #expect(during.items.count == 30 && during.isRefreshing && during.isLoading)
        server.release()
        await refresh.value
        #expect(pager.items.map(\.id) == Array(1...10) && !pager.isRefreshing)
    }

    @Test func twentyConcurrentCallsWhileAPageIsInFlightFetchItOnce() async throws {
        let server = FakeListServer(.init(holdPage: 1))
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...20 { group.addTask { await pager.loadNextPage() } }
                try? await waitUntil { server.heldCount == 1 && pager.waiterCount == 20 }
                server.release()
            }
        }
        #expect(server.requests.count == 1)
        #expect(pager.items.map(\.id) == Array(1...10))
    }

    @Test(arguments: PagedList.allCases)
    func twentyConcurrentLoadersFetchEveryPageExactlyOnce(_ list: PagedList) async throws {
        let server = FakeListServer()
        let pager = list.pager(server: .fakeLists, firing: server.firing)
        await withTaskGroup(of: Void.self) { group in
            for _ in 1...20 {
                group.addTask { while pager.hasMore { await pager.loadNextPage() } }
            }
        }
        #expect(server.requests.count == 10)
        #expect((1...10).allSatisfy { server.requestCount(forPage: $0) == 1 })
        #expect(pager.items.map(\.id) == Array(1...95))
    }

    @Test func cancelStopsTheLoadAndKeepsTheItems() async throws {
        let server = FakeListServer(.init(holdPage: 2))
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        await pager.loadNextPage()
        let load = Task { await pager.loadNextPage() }
        try await waitUntil { server.heldCount == 1 }
        pager.cancel()
        try await withTimeout { await load.value }
        #expect(pager.items.count == 10 && !pager.isLoading && pager.hasMore && pager.error == nil)
    }

    @Test func manyThreadsLoadingRefreshingAndReadingKeepTheStateConsistent() async throws {
        let server = FakeListServer(.init(answersOnAnotherThread: true))
        let pager = PagedList.cursorInBody.pager(server: .fakeLists, firing: server.firing)
        let states = pager.states()
        try await withTimeout(30) {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        for step in 0..<20 {
                            switch (worker + step) % 4 {
                            case 0: await pager.refresh()
                            case 1: _ = pager.loadNextPageIfNeeded(currentIndex: .max)
                            case 2: _ = pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1)
                            default: await pager.loadNextPage()
                            }
                            let state = pager.state
                            #expect(Set(state.items.map(\.id)).count == state.items.count)
                            #expect(state.items.map(\.id) == (0..<state.items.count).map { $0 + 1 })
                        }
                    }
                }
            }
        }
        await pager.loadNextPage()
        #expect(!pager.isLoading)
        var iterator = states.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }
}
