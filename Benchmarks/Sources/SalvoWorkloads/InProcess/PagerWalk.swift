import Foundation
import Salvo

/// Benchmark 4: walking 1,000 pages of 20 items with mock firing, through `Pager` and by hand.
///
/// Both sides fire the same call with `?page=N&per_page=20` through the same mock firing function,
/// answered with the same precomputed bodies, and keep every item in one array. By hand is the
/// loop a careful caller writes: set the page, `value(as:)`, append, stop at `total`.
public struct PagerWalk: Sendable {
    /// One list item.
    public struct Item: Codable, Sendable {
        let id: Int
        let title: String
        let score: Double
    }

    /// A page as the server sends it.
    struct PageBody: Codable, Sendable {
        let items: [Item]
        let total: Int
    }

    /// Items per page.
    public static let pageSize = 20

    /// Pages in the list.
    public let pageCount: Int
    private let call: NetCall

    /// A list of `pageCount` pages, each body encoded once up front.
    public init(pageCount: Int = 1_000) {
        self.pageCount = pageCount
        let total = pageCount * Self.pageSize
        let encoder = JSONEncoder()
        let bodies: [Data] = (0..<pageCount).map { page in
            let items = (0..<Self.pageSize).map { index in
                let id = page * Self.pageSize + index
                return Item(id: id, title: "Item \(id)", score: Double(id) / 8)
            }
            return (try? encoder.encode(PageBody(items: items, total: total))) ?? Data()
        }
        call = NetCall(
            server: ServerConfig(host: "api.example.com", basePath: "v1"),
            endpoint: .get("/items"),
            callbackQueue: .immediate,
            firingFunction: .mock { request in
                guard let page = request.query["page"].flatMap(Int.init), bodies.indices.contains(page - 1) else {
                    return .status(404)
                }
                return .data(bodies[page - 1], headers: ["Content-Type": "application/json"])
            }
        )
    }

    /// Walks every page with a `Pager` (`.pageNumber`, `.object()`); returns it holding the items.
    public func pager() async throws -> Pager<Item> {
        try await walk(Pager(call: call, strategy: .pageNumber(pageSize: Self.pageSize), decoder: .object()))
    }

    /// The same walk, with the page decoded as a plain `Decodable` struct (`.decoding`), to tell the
    /// cost of `.object()`'s key lookup from the cost of the pager itself.
    public func pagerDecodingStruct() async throws -> Pager<Item> {
        let decoder = PageDecoder<Item>.decoding(PageBody.self) { Page(items: $0.items, totalCount: $0.total) }
        return try await walk(Pager(call: call, strategy: .pageNumber(pageSize: Self.pageSize), decoder: decoder))
    }

    /// Walks every page by hand; returns the items.
    public func byHand() async throws -> [Item] {
        var items: [Item] = []
        var page = 1
        while true {
            var pageCall = call
            pageCall.endpoint = call.endpoint
                .setting(query: "page", to: String(page))
                .setting(query: "per_page", to: String(Self.pageSize))
            let body = try await pageCall.value(as: PageBody.self)
            items += body.items
            if items.count >= body.total || body.items.count < Self.pageSize { return items }
            page += 1
        }
    }

    private func walk(_ pager: Pager<Item>) async throws -> Pager<Item> {
        repeat {
            await pager.loadNextPage()
        } while pager.hasMore && pager.error == nil
        if let error = pager.error { throw error }
        guard pager.items.count == pageCount * Self.pageSize else {
            throw WorkloadError("the pager kept \(pager.items.count) items, expected \(pageCount * Self.pageSize)")
        }
        return pager
    }

    /// Fails unless both sides end with the same items in the same order.
    public func checkEquivalence() async throws {
        let byHand = try await byHand().map(\.id)
        let paged = try await pager().items.map(\.id)
        guard byHand == paged, byHand.count == pageCount * Self.pageSize else {
            throw WorkloadError("pager and by-hand walks differ: \(paged.count) vs \(byHand.count) items")
        }
    }
}
