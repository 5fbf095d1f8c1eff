import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct PagingStrategyTests {
    private let base = NetCall(server: ServerConfig(host: "api.test", basePath: "v1"), endpoint: .get("/items", query: ["q": "swift"]))

    private func loaded(
        _ items: Int, index: Int = 0, before: Int = 0, call: NetCall? = nil,
        headers: [String: String] = [:], page: Page<Int> = Page(items: [])
    ) throws -> LoadedPage {
        var page = page
        page.items = Array(repeating: 0, count: items)
        let call = call ?? base
        let url = try call.urlRequest().url ?? URL(fileURLWithPath: "/")
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        return LoadedPage(page: page, index: index, itemsBefore: before, call: call, baseCall: base,
                          response: NetworkResponse(data: Data(), urlResponse: response))
    }

    private func query(_ call: NetCall?) throws -> String? {
        try call?.urlRequest().url?.query
    }

    @Test func pageNumberSetsPageAndSizeAndKeepsOtherQueryItems() throws {
        let strategy = PagingStrategy.pageNumber(pageSize: 25, pageName: "p", pageSizeName: "size")
        #expect(try query(strategy.firstPage(of: base)) == "q=swift&p=1&size=25")
        #expect(try query(strategy.nextPage(after: loaded(25, index: 0))) == "q=swift&p=2&size=25")
        #expect(try query(strategy.nextPage(after: loaded(25, index: 4))) == "q=swift&p=6&size=25")
    }

    @Test func pageNumberWithoutASizeNameSendsOnlyThePage() throws {
        let strategy = PagingStrategy.pageNumber(pageSize: 10, firstPage: 0, pageSizeName: nil)
        #expect(try query(strategy.firstPage(of: base)) == "q=swift&page=0")
    }

    @Test(arguments: [
        (Page<Int>(items: []), 9, true),                       // short page, no metadata
        (Page<Int>(items: []), 10, false),                     // full page, no metadata
        (Page<Int>(items: [], hasMore: true), 3, false),       // the server says more, even if short
        (Page<Int>(items: [], hasMore: false), 10, true),
        (Page<Int>(items: [], totalPages: 1), 10, true),
        (Page<Int>(items: [], totalCount: 12), 10, false),
        (Page<Int>(items: [], totalCount: 10), 10, true),
        (Page<Int>(items: [], hasMore: true), 0, true),        // an empty page always ends a counted list
    ])
    func countedListsEndFromMetadataOrAShortPage(_ page: Page<Int>, _ count: Int, _ isLast: Bool) throws {
        for strategy in [PagingStrategy.pageNumber(pageSize: 10), .offset(limit: 10)] {
            #expect(try (strategy.nextPage(after: loaded(count, page: page)) == nil) == isLast)
        }
    }

    @Test func offsetAdvancesByTheItemsReceived() throws {
        let strategy = PagingStrategy.offset(limit: 10, offsetName: "from", limitName: "n")
        #expect(try query(strategy.firstPage(of: base)) == "q=swift&from=0&n=10")
        let page = try loaded(10, index: 2, before: 20, page: Page(items: [], hasMore: true))
        #expect(try query(strategy.nextPage(after: page)) == "q=swift&from=30&n=10")
    }

    @Test func cursorIsSentAndTheListEndsWithoutOne() throws {
        let strategy = PagingStrategy.cursor(queryName: "after")
        #expect(try query(strategy.firstPage(of: base)) == "q=swift")
        let next = try strategy.nextPage(after: loaded(10, page: Page(items: [], nextCursor: "a b=")))
        #expect(try query(next) == "q=swift&after=a%20b%3D")
        #expect(try strategy.nextPage(after: loaded(10, page: Page(items: [], nextCursor: nil))) == nil)
        #expect(try strategy.nextPage(after: loaded(10, page: Page(items: [], nextCursor: ""))) == nil)
        #expect(try strategy.nextPage(after: loaded(10, page: Page(items: [], nextCursor: "c", hasMore: false))) == nil)
    }

    @Test func cursorThatRepeatsTheOneJustSentEndsTheList() throws {
        let strategy = PagingStrategy.cursor()
        var call = base
        call.endpoint = call.endpoint.setting(query: "cursor", to: "same")
        #expect(try strategy.nextPage(after: loaded(10, call: call, page: Page(items: [], nextCursor: "same"))) == nil)
    }

    @Test func cursorFromAHeaderIgnoresTheBody() throws {
        let strategy = PagingStrategy.cursor(from: .header("X-Next"))
        let page = try loaded(10, headers: ["x-next": "h1"], page: Page(items: [], nextCursor: "b1"))
        #expect(try query(strategy.nextPage(after: page)) == "q=swift&cursor=h1")
        #expect(try strategy.nextPage(after: loaded(10, page: Page(items: [], nextCursor: "b1"))) == nil)
    }

    @Test func linkTargetReplacesPathAndQueryWithoutRepeatingTheAPIRoute() throws {
        let next = try PagingStrategy.linkHeader().nextPage(after: loaded(10, headers: ["Link": #"<https://api.test/v1/items?q=swift&page=2>; rel="next""#]))
        let url = try #require(try next?.urlRequest().url)
        #expect(url.absoluteString == "https://api.test/v1/items?q=swift&page=2")
        #expect(next?.endpoint.method == .get)
    }

    @Test func relativeLinkKeepsTheServerDefaultsOnce() throws {
        var base = base
        base.server.defaultQuery = [URLQueryItem(name: "key", value: "k1")]
        base.server.defaultHeaders = ["Accept": "application/json"]
        let call = base
        let page = try loaded(10, call: call, headers: ["Link": #"</v1/items?key=k1&cursor=a%2Bb+c>; rel="next""#])
        let next = try #require(try PagingStrategy.linkHeader().nextPage(after: LoadedPage(
            page: Page<Int>(items: Array(repeating: 0, count: 10)), index: 0, itemsBefore: 0, call: call, baseCall: call, response: page.response)))
        let request = try next.urlRequest()
        #expect(request.url?.absoluteString == "https://api.test/v1/items?key=k1&cursor=a%2Bb%20c")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test(arguments: ["http://api.test/v1/items?page=2", "https://evil.test/v1/items?page=2", "https://api.test:444/v1/items", "//evil.test/x"])
    func linkToAnotherOriginThrowsInvalidRequest(_ target: String) throws {
        #expect(throws: NetworkError.self) {
            try PagingStrategy.linkHeader().nextPage(after: loaded(10, headers: ["Link": "<\(target)>; rel=\"next\""]))
        }
    }

    @Test func linkOnTheDefaultPortSpelledOutIsTheSameOrigin() throws {
        let next = try PagingStrategy.linkHeader().nextPage(after: loaded(10, headers: ["Link": "<https://API.test:443/v1/items?page=2>; rel=next"]))
        #expect(next != nil)
    }

    @Test func noNextLinkEndsTheList() throws {
        #expect(try PagingStrategy.linkHeader().nextPage(after: loaded(10, headers: ["Link": #"</v1/items?page=1>; rel="first""#])) == nil)
        #expect(try PagingStrategy.linkHeader().nextPage(after: loaded(10)) == nil)
    }
}
