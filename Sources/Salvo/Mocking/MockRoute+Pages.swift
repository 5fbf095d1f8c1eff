import Foundation

extension MockRoute {
    /// A `GET` route that serves `items` page by page, as a server paging with `paging` would:
    /// a ``Pager`` with the matching strategy walks the whole array offline, for previews and tests.
    ///
    /// ```swift
    /// let routes = MockRoutes([
    ///     .pages("/books", of: books, paging: .pageNumber(pageSize: 20)),
    ///     .pages("/feed", of: posts, paging: .cursor(pageSize: 10)),
    ///     .pages("/repos", of: repos, paging: .linkHeader(pageSize: 30), body: .array),
    /// ])
    /// let pager = Pager(call: NetCall(server: server, endpoint: .get("/books"), firingFunction: .mock(routes)),
    ///                   strategy: .pageNumber(pageSize: 20), decoder: .object(), id: \Book.id)
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: the path pattern, as for any route.
    ///   - items: the whole list, in order.
    ///   - paging: how the list is split and how a request asks for a page.
    ///   - body: an object with the items and metadata (the default), or a bare array.
    ///   - encoder: how items are encoded.
    public static func pages<Item: Encodable & Sendable>(
        _ pattern: String,
        of items: [Item],
        paging: MockPaging,
        body: MockPaging.Body = .object,
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockRoute {
        MockRoute(.get, pattern) { request in
            paging.response(to: request, items: items, body: body, encoder: encoder)
        }
    }

    /// A `GET` route that serves `items` page by page, encoding them on the main actor: chosen
    /// from the main actor for a model whose `Encodable` conformance is isolated to it (a plain
    /// model of an app target with main-actor default isolation), as in a SwiftUI preview.
    ///
    /// See `pages(_:of:paging:body:encoder:)` for the pages it serves.
    ///
    /// - Parameters:
    ///   - pattern: the path pattern, as for any route.
    ///   - items: the whole list, in order.
    ///   - paging: how the list is split and how a request asks for a page.
    ///   - body: an object with the items and metadata (the default), or a bare array.
    ///   - encoder: how items are encoded.
    @MainActor
    public static func pages<Item: Encodable>(
        _ pattern: String,
        of items: [Item],
        paging: MockPaging,
        body: MockPaging.Body = .object,
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockRoute {
        MockRoute(.get, pattern, onMainActor: { request in
            paging.response(to: request, items: items, body: body, encoder: encoder)
        })
    }
}
