import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// `loadAll(maxPages:)` against the in-process list server.
@Suite struct PagerLoadAllTests {
    private func pager(_ options: FakeListServer.Options = FakeListServer.Options()) -> Pager<ListItem> {
        PagedList.pageNumber.pager(server: .fakeLists, firing: FakeListServer(options).firing)
    }

    @Test func loadsEveryPageAndReturnsTheItems() async throws {
        let pager = pager()
        let items = try await withTimeout { try await pager.loadAll(maxPages: 10) }
        #expect(items.map(\.id) == Array(1...95))
        #expect(pager.state.pageCount == 10 && !pager.hasMore)
    }

    @Test func aListLongerThanTheBoundThrowsAndKeepsWhatItLoaded() async throws {
        let pager = pager()
        do {
            _ = try await withTimeout { try await pager.loadAll(maxPages: 3) }
            Issue.record("expected the bound to be reported")
        } catch let error as NetworkError {
            guard case .unacceptableResponse(let problem) = error else { Issue.record("got \(error)"); return }
            #expect(problem.reason.contains("more than 3 pages"))
        }
        #expect(pager.items.count == 30)
    }

    @Test func aFailingPageThrowsItsErrorAndAnotherCallResumesThere() async throws {
        var options = FakeListServer.Options()
        options.failPage = 2
        let pager = pager(options)
        do {
            _ = try await withTimeout { try await pager.loadAll() }
            Issue.record("expected page 2 to fail")
        } catch let error as NetworkError {
            #expect(error.statusCode == 500)
        }
        #expect(pager.items.count == 10)
        #expect(try await withTimeout { try await pager.loadAll() }.count == 95)
    }

    @Test func anExhaustedListReturnsAtOnce() async throws {
        var options = FakeListServer.Options()
        options.total = 0
        let pager = pager(options)
        #expect(try await withTimeout { try await pager.loadAll() }.isEmpty)
        #expect(try await withTimeout { try await pager.loadAll(maxPages: 0) }.isEmpty)
    }
}
