import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// The pager firing real requests over each transport at the loopback server's `/list/<key>/…` routes.
@Suite struct PagerIntegrationTests {
    private func pager(_ list: PagedList, key: String, _ query: KeyValuePairs<String, String> = [:], over transport: TransportUnderTest) async throws -> Pager<ListItem> {
        let items = query.map { URLQueryItem(name: $0.key, value: $0.value) }
        return try await list.pager(server: .loopback(), firing: transport.firing, key: key, query: items)
    }

    @Test(arguments: TransportUnderTest.all, PagedList.allCases)
    func loadsAListWhoseLengthIsNotAMultipleOfThePageSize(over transport: TransportUnderTest, _ list: PagedList) async throws {
        let key = uniqueKey()
        let pager = try await pager(list, key: key, ["total": "95"], over: transport)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(!pager.hasMore && pager.error == nil && pager.state.pageCount == 10)
        #expect(try await LoopbackServer.count(path: list.path(key: key)) == 10)
    }

    @Test(arguments: TransportUnderTest.all, PagedList.allCases)
    func emptyListEndsAfterOneRequest(over transport: TransportUnderTest, _ list: PagedList) async throws {
        let key = uniqueKey()
        let pager = try await pager(list, key: key, ["total": "0"], over: transport)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.isEmpty && !pager.hasMore && pager.error == nil)
        #expect(try await LoopbackServer.count(path: list.path(key: key)) == 1)
    }

    @Test(arguments: TransportUnderTest.all, PagedList.allCases)
    func failureOnPage3ThenRetryResumesAtPage3(over transport: TransportUnderTest, _ list: PagedList) async throws {
        let key = uniqueKey()
        let pager = try await pager(list, key: key, ["fail_page": "3", "fail_times": "1"], over: transport)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...20))
        #expect(pager.error?.statusCode == 500 && pager.hasMore)
        try await withTimeout { await pager.retry() }
        #expect(pager.items.map(\.id) == Array(1...30) && pager.error == nil)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(try await LoopbackServer.count(path: list.path(key: key)) == 11)
    }

    @Test(arguments: TransportUnderTest.all, PagedList.allCases)
    func refreshWhilePage4IsInFlightReplacesTheItemsAndDropsPage4(over transport: TransportUnderTest, _ list: PagedList) async throws {
        let key = uniqueKey()
        let path = list.path(key: key)
        // Page 4 answers after 60 s: a refresh that wrongly waits for it takes a minute, one that
        // drops it a moment, so the bound below sits far from both on a loaded machine.
        let pager = try await pager(list, key: key, ["delay_page": "4", "delay": "60"], over: transport)
        try await withTimeout { for _ in 1...3 { await pager.loadNextPage() } }
        #expect(pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1))
        try await waitUntil { try await LoopbackServer.count(path: path) == 4 }
        #expect(pager.isLoading && pager.items.count == 30)

        let started = Date()
        try await withTimeout(90) { await pager.refresh() }
        #expect(Date().timeIntervalSince(started) < 30, "the refresh did not wait for page 4")
        #expect(pager.items.map(\.id) == Array(1...10))
        #expect(!pager.isLoading && pager.state.pageCount == 1 && pager.error == nil)
        try await withTimeout { await pager.loadNextPage() }
        #expect(pager.items.map(\.id) == Array(1...20))
    }

    @Test(arguments: TransportUnderTest.all)
    func twentyConcurrentCallsWhileThePageIsInFlightRequestItOnce(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let pager = try await pager(.pageNumber, key: key, ["delay_page": "1", "delay": "3"], over: transport)
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...20 { group.addTask { await pager.loadNextPage() } }
            }
        }
        #expect(pager.items.map(\.id) == Array(1...10))
        #expect(try await LoopbackServer.count(path: PagedList.pageNumber.path(key: key)) == 1)
    }

    @Test(arguments: TransportUnderTest.all, PagedList.allCases)
    func twentyConcurrentLoadersRequestEveryPageExactlyOnce(over transport: TransportUnderTest, _ list: PagedList) async throws {
        let key = uniqueKey()
        let pager = try await pager(list, key: key, over: transport)
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...20 {
                    group.addTask { while pager.hasMore && pager.error == nil { await pager.loadNextPage() } }
                }
            }
        }
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(try await LoopbackServer.count(path: list.path(key: key)) == 10)
    }

    @Test(arguments: TransportUnderTest.all, ["elsewhere.invalid", "127.0.0.1:1"])
    func nextLinkToAnotherHostIsAnErrorNotARequest(over transport: TransportUnderTest, _ nextHost: String) async throws {
        let key = uniqueKey()
        let pager = try await pager(.linkHeader, key: key, ["next_host": nextHost], over: transport)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...10))
        #expect(!pager.hasMore)
        guard case .invalidRequest(let problem) = pager.error else {
            Issue.record("expected invalidRequest, got \(String(describing: pager.error))")
            return
        }
        #expect(problem.part == .url && problem.reason.contains(nextHost))
        #expect(try await LoopbackServer.count(path: PagedList.linkHeader.path(key: key)) == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func relativeNextLinksAreFollowed(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let pager = try await pager(.linkHeader, key: key, ["link_style": "relative"], over: transport)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...95))
    }

    @Test(arguments: TransportUnderTest.all)
    func serverAPIRouteIsNotRepeatedOnLinkedPages(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let call = try await NetCall(server: .loopback(basePath: "list"), endpoint: .get("/\(key)/link", query: ["per_page": "30"]),
                                     firingFunction: transport.firing)
        let pager = Pager(call: call, strategy: .linkHeader(), decoder: .array(), id: \ListItem.id)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...95))
        #expect(try await LoopbackServer.count(path: "/list/\(key)/link") == 4)
    }

    @Test(arguments: TransportUnderTest.all)
    func refresherAndGroupRefreshAgainstTheServer(over transport: TransportUnderTest) async throws {
        struct Summary: Decodable, Sendable { let total: Int }
        let key = uniqueKey()
        let summary = try await Refresher(call: NetCall(server: .loopback(), endpoint: .get("/list/\(key)/pages", query: ["total": "42"]), firingFunction: transport.firing),
                                          as: Summary.self)
        let pager = try await pager(.offset, key: key, over: transport)
        try await withTimeout { await RefreshGroup([summary, pager]).refresh() }
        #expect(summary.value?.total == 42)
        #expect(pager.items.map(\.id) == Array(1...10))
    }

    /// Issue 38 A1: the cursor route's keys are snake_case (`next_cursor`); under a server decoder
    /// that converts them, every page arrives, not 5 of 23.
    @Test(arguments: TransportUnderTest.all)
    func aCursorListWithSnakeCaseKeysArrivesWholeUnderConvertFromSnakeCase(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let log = Locked<[String]>([])
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var server = try await ServerConfig.loopback()
        server.decoder = decoder
        server.actions = [LoggingAction { message in log.withLock { $0.append(message) } }]
        let call = NetCall(server: server, endpoint: .get("/list/\(key)/cursor", query: ["limit": "5", "total": "23"]), firingFunction: transport.firing)
        let pager = Pager(call: call, strategy: .cursor(from: .body), decoder: .object(), id: \ListItem.id)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...23))
        #expect(!pager.hasMore && pager.error == nil && pager.state.pageCount == 5)
        #expect(try await LoopbackServer.count(path: "/list/\(key)/cursor") == 5)
        #expect(!log.withLock { $0 }.contains { $0.hasPrefix("Pager:") })
    }
}
