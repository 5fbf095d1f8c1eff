import Foundation
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Pages read the same under every key decoding strategy of the server's decoder, and a first
/// page without the key a strategy reads is said once through the logging action's sink.
@Suite struct PagerKeyDecodingTests {
    /// A server decoder's key decoding strategy, as a test argument.
    enum KeyStrategy: String, CaseIterable, CustomTestStringConvertible {
        case useDefaultKeys
        case convertFromSnakeCase
        /// A custom strategy that drops underscores: `next_cursor` becomes `nextcursor`.
        case custom

        var testDescription: String { rawValue }

        var decoder: JSONDecoder {
            let decoder = JSONDecoder()
            switch self {
            case .useDefaultKeys: decoder.keyDecodingStrategy = .useDefaultKeys
            case .convertFromSnakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
            case .custom:
                decoder.keyDecodingStrategy = .custom { path in
                    AnyKey((path.last?.stringValue ?? "").replacingOccurrences(of: "_", with: ""))
                }
            }
            return decoder
        }
    }

    /// A list of `total` items in pages of 5, with snake_case metadata keys: `next_cursor`
    /// (also in `X-Next-Cursor`), `has_more`, and a `Link` header; whichever the pager asks for.
    private static func snakeCaseList(total: Int, requests: Locked<Int>) -> FiringFunction {
        .mock { request in
            requests.withLock { $0 += 1 }
            let query = request.query
            let start = Int(query["offset"] ?? query["cursor"] ?? "")
                ?? (Int(query["page"] ?? "1") ?? 1) * 5 - 5
            let end = min(start + 5, total)
            let items = start < end ? (start + 1...end).map { ListItem(id: $0, name: "Item \($0)") } : []
            let hasMore = end < total
            var headers: HTTPHeaders = [:]
            if hasMore {
                headers["X-Next-Cursor"] = String(end)
                headers["Link"] = "</list?page=\(end / 5 + 1)>; rel=\"next\", </list?page=1>; rel=\"first\""
            }
            let body = SnakeCasePage(items: items, nextCursor: hasMore ? String(end) : nil, hasMore: hasMore)
            return .json(body, headers: headers)
        }
    }

    private struct SnakeCasePage: Encodable {
        let items: [ListItem]
        let nextCursor: String?
        let hasMore: Bool

        enum CodingKeys: String, CodingKey {
            case items
            case nextCursor = "next_cursor"
            case hasMore = "has_more"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(nextCursor, forKey: .nextCursor)  // null on the last page, not absent
            try container.encode(hasMore, forKey: .hasMore)
        }
    }

    private static let strategies: [(String, PagingStrategy)] = [
        ("cursor in body", .cursor(from: .body)),
        ("cursor in header", .cursor(from: .header("X-Next-Cursor"))),
        ("Link header", .linkHeader()),
        ("offset", .offset(limit: 5)),
        ("page number", .pageNumber(pageSize: 5)),
    ]

    // 25 items: the last page is full, so a counted strategy stops after page 5 only when it
    // reads `has_more`; a cursor strategy goes past page 1 only when it reads `next_cursor`.
    @Test(arguments: KeyStrategy.allCases, 0..<5)
    func everyPageArrivesUnderEveryKeyDecodingStrategy(_ keys: KeyStrategy, strategyIndex: Int) async throws {
        let (name, strategy) = Self.strategies[strategyIndex]
        let requests = Locked(0)
        let server = ServerConfig(host: "api.example.com", decoder: keys.decoder)
        let call = NetCall(server: server, endpoint: .get("/list"), firingFunction: Self.snakeCaseList(total: 25, requests: requests))
        let pager = Pager(call: call, strategy: strategy, decoder: .object(), id: \ListItem.id)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...25), "\(name)")
        #expect(!pager.hasMore && pager.error == nil, "\(name)")
        #expect(requests.withLock { $0 } == 5, "\(name): one request per page, none after the last")
    }

    @Test(arguments: KeyStrategy.allCases)
    func nestedMetadataKeysAreReadUnderEveryKeyDecodingStrategy(_ keys: KeyStrategy) async throws {
        let firing = FiringFunction.mock { request in
            let cursor = Int(request.query["cursor"] ?? "0") ?? 0
            let items = (cursor + 1...cursor + 2).map { ListItem(id: $0, name: "Item \($0)") }
            let next = cursor < 4 ? "\"\(cursor + 2)\"" : "null"
            let itemsJSON = items.map { #"{"id": \#($0.id), "name": "\#($0.name)"}"# }.joined(separator: ", ")
            return .data(Data(#"{"page_data": {"list_items": [\#(itemsJSON)]}, "page_meta": {"next_cursor": \#(next)}}"#.utf8))
        }
        let server = ServerConfig(host: "api.example.com", decoder: keys.decoder)
        let call = NetCall(server: server, endpoint: .get("/list"), firingFunction: firing)
        let decoder = PageDecoder<ListItem>.object(itemsKey: "page_data.list_items", nextCursorKey: "page_meta.next_cursor")
        let pager = Pager(call: call, strategy: .cursor(from: .body), decoder: decoder, id: \ListItem.id)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...6))
        #expect(!pager.hasMore && pager.error == nil)
    }

    // MARK: - A first page without the key

    /// A pager over a list that answers every page with `body` and `headers`, logging to `log`.
    private func pager(strategy: PagingStrategy, body: String, headers: HTTPHeaders = [:], log: Locked<[String]>) -> Pager<ListItem> {
        let logging = LoggingAction { message in log.withLock { $0.append(message) } }
        let server = ServerConfig(host: "api.example.com", actions: [logging], decoder: KeyStrategy.convertFromSnakeCase.decoder)
        let firing = FiringFunction.mock { _ in .data(Data(body.utf8), headers: headers) }
        return Pager(call: NetCall(server: server, endpoint: .get("/list"), firingFunction: firing), strategy: strategy, decoder: .object(), id: \ListItem.id)
    }

    private static let twoItems = #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#

    private func notices(_ log: Locked<[String]>) -> [String] {
        log.withLock { $0 }.filter { $0.hasPrefix("Pager:") }
    }

    @Test func aFirstPageWithoutTheCursorKeyIsLoggedOnceNamingTheKeyAndThePagesKeys() async throws {
        let log = Locked<[String]>([])
        let pager = pager(strategy: .cursor(from: .body), body: #"{"items": \#(Self.twoItems), "nextPage": "abc"}"#, log: log)
        try await withTimeout {
            await pager.loadNextPage()
            await pager.refresh()
            await pager.refresh()
        }
        #expect(pager.items.count == 2 && !pager.hasMore)
        let notices = notices(log)
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.contains(#""next_cursor""#))
        #expect(notice.contains(#"the keys "items", "nextPage""#))
        #expect(log.withLock { $0 }.count == 7, "a request and a response line per load, and the notice")
    }

    @Test func aNullCursorOnTheFirstPageIsTheServerSayingTheListEnds() async throws {
        let log = Locked<[String]>([])
        let pager = pager(strategy: .cursor(from: .body), body: #"{"items": \#(Self.twoItems), "next_cursor": null}"#, log: log)
        try await withTimeout { await pager.loadNextPage() }
        #expect(pager.items.count == 2 && !pager.hasMore)
        #expect(log.withLock { $0 }.count == 2)
        #expect(notices(log).isEmpty)
    }

    @Test(arguments: [
        (PagingStrategy.cursor(from: .header("X-Next-Cursor")), ["X-Request-Id": "7"], "no X-Next-Cursor header"),
        (PagingStrategy.linkHeader(), ["X-Request-Id": "7"], "no Link header"),
        (PagingStrategy.linkHeader(), ["Link": #"</list?page=1>; rel="first", </list?page=1>; rel="last""#], #"has no rel="next" link"#),
    ])
    func aFirstPageWithoutTheHeaderIsLoggedOnce(_ strategy: PagingStrategy, headers: [String: String], expected: String) async throws {
        let log = Locked<[String]>([])
        let pager = pager(strategy: strategy, body: #"{"items": \#(Self.twoItems)}"#, headers: HTTPHeaders(headers.map { ($0.key, $0.value) }), log: log)
        try await withTimeout {
            await pager.loadNextPage()
            await pager.refresh()
        }
        let notices = notices(log)
        #expect(notices.count == 1)
        #expect(notices.first?.contains(expected) == true, "\(notices)")
        if headers["Link"] == nil {
            #expect(notices.first?.contains(#""X-Request-Id""#) == true, "\(notices)")
        } else {
            #expect(notices.first?.contains(#"the relations "first", "last""#) == true, "\(notices)")
        }
    }

    @Test func aListThatGoesOnIsNotLogged() async throws {
        let log = Locked<[String]>([])
        let logging = LoggingAction { message in log.withLock { $0.append(message) } }
        let requests = Locked(0)
        let server = ServerConfig(host: "api.example.com", actions: [logging], decoder: KeyStrategy.convertFromSnakeCase.decoder)
        let call = NetCall(server: server, endpoint: .get("/list"), firingFunction: Self.snakeCaseList(total: 12, requests: requests))
        let pager = Pager(call: call, strategy: .cursor(from: .body), decoder: .object(), id: \ListItem.id)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.count == 12)
        #expect(notices(log).isEmpty)
    }
}
