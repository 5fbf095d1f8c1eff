import Foundation
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct RefresherTests {
    private struct Counter: Decodable, Sendable { let page: Int }

    private func refresher(_ server: FakeListServer) -> Refresher<Counter> {
        // The fake's page-number route answers {"page": n, …}; each refresh asks for page 1.
        Refresher(call: NetCall(server: .fakeLists, endpoint: .get("/list/k/pages"), firingFunction: server.firing), as: Counter.self)
    }

    @Test func refreshReplacesTheValue() async throws {
        let server = FakeListServer()
        let refresher = refresher(server)
        #expect(refresher.value == nil)
        await refresher.refresh()
        #expect(refresher.value?.page == 1 && refresher.error == nil && refresher.state.updatedAt != nil)
        await refresher.refresh()
        #expect(server.requests.count == 2)
    }

    @Test func failedRefreshKeepsTheValue() async throws {
        let server = FakeListServer(.init(failRequests: [2]))
        let refresher = refresher(server)
        await refresher.refresh()
        await refresher.refresh()
        #expect(refresher.value?.page == 1)
        #expect(refresher.error?.statusCode == 500)
        await refresher.refresh()
        #expect(refresher.error == nil)
    }

    @Test func concurrentRefreshesFireOnce() async throws {
        let server = FakeListServer(.init(holdPage: 1))
        let refresher = refresher(server)
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...10 { group.addTask { await refresher.refresh() } }
                try? await waitUntil { server.heldCount == 1 && refresher.isRefreshing }
                try? await waitUntil { refresher.waiterCount == 10 }
                server.release()
            }
        }
        #expect(server.requests.count == 1)
        #expect(refresher.value?.page == 1 && !refresher.isRefreshing)
    }

    @Test func undecodableBodyIsADecodingError() async throws {
        let server = FakeListServer()
        let call = NetCall(server: .fakeLists, endpoint: .get("/list/k/link"), firingFunction: server.firing)
        let refresher = Refresher(call: call, as: Counter.self)
        await refresher.refresh()
        guard case .decoding = refresher.error else {
            Issue.record("expected decoding, got \(String(describing: refresher.error))")
            return
        }
    }

    @Test func groupRefreshesEveryMemberAndReportsTheirErrors() async throws {
        let lists = FakeListServer()
        let failing = FakeListServer(.init(failRequests: [1]))
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: lists.firing)
        let refresher = refresher(failing)
        await pager.loadNextPage()
        await pager.loadNextPage()
        let group = RefreshGroup([pager, refresher])
        await group.refresh()
        #expect(lists.requests.count == 3 && failing.requests.count == 1)
        #expect(pager.items.count == 10, "the pager's first page replaced its items")
        #expect(!group.isRefreshing)
        #expect([pager.error, refresher.error].compactMap { $0 }.count == 1 && group.error?.statusCode == 500)
        await group.refresh()
        #expect(group.error == nil && refresher.value?.page == 1)
    }
}

extension Refresher {
    /// How many callers wait for the refresh in flight.
    var waiterCount: Int { loader.read { _, load in load?.waiters.count ?? 0 } }
}
