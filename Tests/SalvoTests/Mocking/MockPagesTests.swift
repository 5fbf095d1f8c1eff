import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

extension PagedList {
    /// The mock paging a server of this list's kind does, as ``MockRoute/pages(_:of:paging:body:encoder:)`` serves it.
    var mockPaging: MockPaging {
        switch self {
        case .pageNumber: .pageNumber(pageSize: 10)
        case .offset: .offset(limit: 10)
        case .cursorInBody, .cursorInHeader: .cursor(pageSize: 10)
        case .linkHeader: .linkHeader(pageSize: 10)
        }
    }

    /// The body the list's decoder reads.
    var mockBody: MockPaging.Body { self == .linkHeader ? .array : .object }

    /// A pager over `items` served by a paged mock route of this list's kind.
    func mockPager(_ items: [ListItem], key: String = "k") -> Pager<ListItem> {
        let routes = MockRoutes([.pages(path(key: key), of: items, paging: mockPaging, body: mockBody)])
        return pager(server: .fakeLists, firing: .mock(routes), key: key)
    }
}

/// Paged mock routes: any strategy walks the whole array offline; bad positions never crash.
@Suite struct MockPagesTests {
    private static let items = (1...95).map { ListItem(id: $0, name: "Item \($0)") }

    @Test(arguments: PagedList.allCases)
    func aPagerWithTheMatchingStrategyWalksTheWholeArray(_ list: PagedList) async throws {
        let pager = list.mockPager(Self.items)
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items == Self.items)
        #expect(pager.state.pageCount == 10)
        #expect(!pager.hasMore && pager.error == nil)
    }

    @Test(arguments: PagedList.allCases)
    func anEmptyArrayIsOneEmptyPage(_ list: PagedList) async throws {
        let pager = list.mockPager([])
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.isEmpty && !pager.hasMore && pager.error == nil)
        #expect(pager.state.pageCount == 1)
    }

    @Test(arguments: PagedList.allCases)
    func aListOfWholePagesEndsOnItsLastPage(_ list: PagedList) async throws {
        let pager = list.mockPager(Array(Self.items.prefix(30)))
        await pager.loadPagesUntilEndOrError()
        #expect(pager.items.count == 30)
        #expect(pager.state.pageCount == 3, "the metadata or the missing next link ends the list")
    }

    @Test func pagesCarryTheMetadataTheObjectDecoderReads() async throws {
        let routes = MockRoutes([.pages("/books", of: Self.items, paging: .pageNumber(pageSize: 20))])
        let call = NetCall(server: .fakeLists, endpoint: .get("/books", query: ["page": "5", "per_page": "20"]), firingFunction: .mock(routes))
        let response = try await call.response()
        let body = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        #expect((body["items"] as? [Any])?.count == 15)
        #expect(body["page"] as? Int == 5 && body["total_pages"] as? Int == 5 && body["total"] as? Int == 95)
        #expect(body["has_more"] as? Bool == false)
        #expect(response.headers["X-Total-Count"] == "95")
    }

    @Test func cursorsAreInTheBodyAndTheHeaderUntilTheLastPage() async throws {
        let routes = MockRoutes([.pages("/feed", of: Self.items, paging: .cursor(pageSize: 50))])
        var call = NetCall(server: .fakeLists, endpoint: .get("/feed"), firingFunction: .mock(routes))
        let first = try await call.response()
        let next = try #require(first.headers["X-Next-Cursor"])
        let body = try #require(try JSONSerialization.jsonObject(with: first.data) as? [String: Any])
        #expect(body["next_cursor"] as? String == next)
        call.endpoint = call.endpoint.setting(query: "cursor", to: next)
        let last = try await call.response()
        let lastBody = try #require(try JSONSerialization.jsonObject(with: last.data) as? [String: Any])
        #expect(lastBody["next_cursor"] is NSNull)
        #expect(last.headers["X-Next-Cursor"] == nil)
    }

    @Test func nextLinksKeepTheRequestsOtherQueryItems() async throws {
        let routes = MockRoutes(under: "/v1", [.pages("/repos", of: Self.items, paging: .linkHeader(pageSize: 30), body: .array)])
        let server = ServerConfig(scheme: "http", host: "lists.test", port: 8080, basePath: "v1")
        let call = NetCall(server: server, endpoint: .get("/repos", query: ["q": "swift"]), firingFunction: .mock(routes))
        let link = try #require(try await call.response().headers["Link"])
        #expect(link == #"<http://lists.test:8080/v1/repos?q=swift&page=2&per_page=30>; rel="next""#)
    }

    @Test(arguments: [("page", "zero"), ("page", "0"), ("per_page", "-5"), ("per_page", "")])
    func aMalformedPositionIsA400NamingIt(_ name: String, _ value: String) async throws {
        let routes = MockRoutes([.pages("/books", of: Self.items, paging: .pageNumber())])
        let endpoint = Endpoint.get("/books").setting(query: name, to: value)
        let call = NetCall(server: .fakeLists, endpoint: endpoint, firingFunction: .mock(routes))
        do {
            _ = try await call.response()
            Issue.record("expected a 400")
        } catch {
            #expect(error.statusCode == 400)
            let message = try JSONDecoder().decode([String: String].self, from: error.responseBody ?? Data())["error"] ?? ""
            #expect(message.contains("\(name)=\"\(value)\""), "\(message)")
        }
    }

    @Test func positionsFarPastTheEndAreEmptyPagesNotCrashes() async throws {
        let huge = String(Int.max)
        let routes = MockRoutes([
            .pages("/pages", of: Self.items, paging: .pageNumber()),
            .pages("/offsets", of: Self.items, paging: .offset()),
            .pages("/links", of: Self.items, paging: .linkHeader()),
        ])
        let requests: [Endpoint] = [
            .get("/pages", query: ["page": huge, "per_page": huge]),
            .get("/offsets", query: ["offset": huge, "limit": huge]),
            .get("/links", query: ["page": huge]),
        ]
        for endpoint in requests {
            let call = NetCall(server: .fakeLists, endpoint: endpoint, firingFunction: .mock(routes))
            let page = try PageDecoder<ListItem>.object().decode(try await call.response())
            #expect(page.items.isEmpty, "\(endpoint.path)")
        }
    }

    @Test func aHugePageSizeIsOnePage() async throws {
        let routes = MockRoutes([.pages("/books", of: Self.items, paging: .pageNumber())])
        let call = NetCall(server: .fakeLists, endpoint: .get("/books", query: ["per_page": String(Int.max)]), firingFunction: .mock(routes))
        let page = try PageDecoder<ListItem>.object().decode(try await call.response())
        #expect(page.items.count == 95 && page.totalPages == 1 && page.hasMore == false)
    }
}

/// The same pager against the loopback server's lists and against paged mock routes serving the
/// same items: mock routes stand in for the server page for page.
@Suite struct MockPagesIntegrationTests {
    @Test(arguments: PagedList.allCases)
    func theMockPagesAsTheServerDoes(_ list: PagedList) async throws {
        let key = uniqueKey()
        let live = list.pager(server: try await .loopback(), firing: .production, key: key)
        await live.loadPagesUntilEndOrError()
        #expect(live.error == nil)
        let mocked = list.mockPager(live.items, key: key)
        await mocked.loadPagesUntilEndOrError()
        #expect(live.items.count == 95)
        #expect(mocked.items == live.items)
        #expect(mocked.state.pageCount == live.state.pageCount)
        #expect(mocked.hasMore == live.hasMore)
    }
}
