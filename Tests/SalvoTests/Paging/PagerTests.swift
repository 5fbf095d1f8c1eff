import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// The pager driven by mock firing: a fake `NetworkSession` serving the lists in process.
@Suite struct PagerTests {
    @Test(arguments: PagedList.allCases)
    func loadsAListWhoseLengthIsNotAMultipleOfThePageSize(_ list: PagedList) async throws {
        let server = FakeListServer()
        let pager = list.pager(server: .fakeLists, firing: server.firing)
        await pager.loadPagesUntilEndOrError()
        let state = pager.state
        #expect(state.items.map(\.id) == Array(1...95))
        #expect(state.pageCount == 10)
        #expect(!state.hasMore && !state.isLoading && state.error == nil)
        #expect(server.requests.count == 10)
        #expect((1...10).allSatisfy { server.requestCount(forPage: $0) == 1 })
    }

    @Test func theStatesPropertiesReadThroughThePager() async {
        let server = FakeListServer()
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        await pager.loadNextPage()
        let state = pager.state
        #expect(pager.items.map(\.id) == state.items.map(\.id))
        #expect(pager.pageCount == 1 && state.pageCount == 1)
        #expect(pager.hasMore == state.hasMore && pager.isLoading == state.isLoading)
        #expect(pager.cacheStatus == nil)
    }

    @Test(arguments: PagedList.allCases)
    func emptyListEndsAfterOneRequest(_ list: PagedList) async throws {
        let server = FakeListServer(.init(total: 0))
        let pager = list.pager(server: .fakeLists, firing: server.firing)
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.isEmpty)
        #expect(!pager.hasMore && pager.error == nil)
        #expect(server.requests.count == 1)
        await pager.loadNextPage()
        #expect(server.requests.count == 1)
    }

    @Test(arguments: PagedList.allCases)
    func failureOnPage3KeepsItemsAndRetryResumesThere(_ list: PagedList) async throws {
        let server = FakeListServer(.init(failPage: 3))
        let pager = list.pager(server: .fakeLists, firing: server.firing)
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.map(\.id) == Array(1...20))
        #expect(pager.error?.statusCode == 500)
        #expect(pager.hasMore)
        #expect(!pager.loadNextPageIfNeeded(currentIndex: 19), "scrolling must not hammer a failing page")

        await pager.retry()
        #expect(pager.error == nil)
        #expect(pager.items.map(\.id) == Array(1...30))
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(server.requestCount(forPage: 3) == 2)
        #expect(server.requestCount(forPage: 2) == 1 && server.requestCount(forPage: 4) == 1)
    }

    @Test func failedRefreshKeepsTheItemsAndTheirPosition() async throws {
        let server = FakeListServer(.init(failRequests: [3]))
        let pager = PagedList.offset.pager(server: .fakeLists, firing: server.firing)
        await pager.loadNextPage()
        await pager.loadNextPage()
        await pager.refresh()
        #expect(pager.items.map(\.id) == Array(1...20))
        #expect(pager.error?.statusCode == 500)
        await pager.loadNextPage()
        #expect(pager.items.map(\.id) == Array(1...30), "the old list continues where it was")
        #expect(pager.error == nil)
    }

    @Test func everyPageGoesThroughTheCallsFiringFunction() async throws {
        let server = FakeListServer()
        let fired = Locked(0)
        let spy = FiringFunction { call, channel in
            fired.withLock { $0 += 1 }
            return server.firing(call, channel)
        }
        let pager = PagedList.cursorInBody.pager(server: .fakeLists, firing: spy)
        await pager.loadPagesUntilEndOrError()
        await pager.refresh()
        #expect(fired.withLock { $0 } == 11)
        #expect(server.requests.count == 11)
    }

    @Test func pageNumbersMayStartAtZero() async throws {
        let server = FakeListServer()
        let call = NetCall(server: .fakeLists, endpoint: .get("/list/k/pages", query: ["first": "0"]), firingFunction: server.firing)
        let pager = Pager<ListItem>(call: call, strategy: .pageNumber(pageSize: 10, firstPage: 0), decoder: .object())
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(server.requests.first?.url?.query?.contains("page=0") == true)
    }

    @Test func overlappingPagesShowEachItemOnceWhenAnIDIsGiven() async throws {
        // A custom strategy whose pages overlap by two items, as when items are inserted server-side.
        let overlapping = PagingStrategy(
            firstPage: { call in
                var call = call
                call.endpoint = call.endpoint.setting(query: "offset", to: "0").setting(query: "limit", to: "10")
                return call
            },
            nextPage: { page in
                guard page.itemCount == 10 else { return nil }
                var call = page.call
                call.endpoint = call.endpoint.setting(query: "offset", to: String((page.index + 1) * 8))
                return call
            }
        )
        let server = FakeListServer()
        let call = NetCall(server: .fakeLists, endpoint: .get("/list/k/offset"), firingFunction: server.firing)
        let unique = Pager(call: call, strategy: overlapping, decoder: .object(), id: \ListItem.id)
        await unique.loadPagesUntilEndOrError()
        #expect(unique.items.map(\.id) == Array(1...95))
        let plain = Pager<ListItem>(call: call, strategy: overlapping, decoder: .object())
        await plain.loadPagesUntilEndOrError()
        #expect(plain.items.count > 95)
    }

    @Test(arguments: ["evil.example", "lists.test:9999", "LISTS.TEST:8081"])
    func nextLinkToAnotherOriginIsAnErrorNotARequest(_ nextHost: String) async throws {
        let server = FakeListServer(.init(nextHost: nextHost))
        let pager = PagedList.linkHeader.pager(server: .fakeLists, firing: server.firing)
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.map(\.id) == Array(1...10), "the page that carried the link is kept")
        #expect(!pager.hasMore)
        guard case .invalidRequest(let problem) = pager.error else {
            Issue.record("expected invalidRequest, got \(String(describing: pager.error))")
            return
        }
        #expect(problem.part == .url && problem.reason.contains(nextHost))
        await pager.loadNextPage()
        #expect(server.requests.count == 1)
    }

    @Test func nextLinkOnTheSameOriginInAnotherCaseIsFollowed() async throws {
        let server = FakeListServer(.init(nextHost: "LISTS.test:8080"))
        let pager = PagedList.linkHeader.pager(server: .fakeLists, firing: server.firing)
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.map(\.id) == Array(1...95))
    }

    @Test func relativeNextLinksResolveAgainstThePageURL() async throws {
        let server = FakeListServer(.init(relativeLinks: true))
        let pager = PagedList.linkHeader.pager(server: .fakeLists, firing: server.firing)
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(server.requests.last?.url?.absoluteString == "http://lists.test:8080/list/k/link?page=10&per_page=10")
    }

    @Test func loadNextPageIfNeededTriggersOnlyNearTheEnd() async throws {
        let server = FakeListServer()
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        #expect(pager.loadNextPageIfNeeded(currentIndex: 0), "an empty list needs its first page")
        #expect(pager.items.count == 10)
        #expect(!pager.loadNextPageIfNeeded(currentIndex: 3, distance: 5))
        #expect(pager.loadNextPageIfNeeded(currentIndex: 4, distance: 5))
        #expect(pager.items.count == 20)
        #expect(!pager.loadNextPageIfNeeded(currentIndex: 12, distance: 5))
        #expect(pager.loadNextPageIfNeeded(currentIndex: 19, distance: 0))
        #expect(server.requests.count == 3)
    }

    @Test func itemVariantOfLoadNextPageIfNeededFindsTheItemByID() async throws {
        let server = FakeListServer()
        let pager = PagedList.offset.pager(server: .fakeLists, firing: server.firing)
        await pager.loadNextPage()
        #expect(!pager.loadNextPageIfNeeded(currentItem: ListItem(id: 2, name: "Item 2")))
        #expect(pager.loadNextPageIfNeeded(currentItem: ListItem(id: 8, name: "Item 8"), distance: 2))
        #expect(pager.items.count == 20)
    }

    @Test func decodingFailureIsAnErrorThatKeepsTheItems() async throws {
        let server = FakeListServer()
        let call = NetCall(server: .fakeLists, endpoint: .get("/list/k/pages"), firingFunction: server.firing)
        let pager = Pager(call: call, strategy: .pageNumber(pageSize: 10),
                          decoder: .object(itemsKey: "missing"), id: \ListItem.id)
        await pager.loadNextPage()
        guard case .decoding = pager.error else {
            Issue.record("expected a decoding error, got \(String(describing: pager.error))")
            return
        }
        #expect(pager.hasMore && pager.items.isEmpty)
    }
}
