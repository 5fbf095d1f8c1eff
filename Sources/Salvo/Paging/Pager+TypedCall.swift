import Foundation

extension Pager {
    /// A pager over a typed call whose value is one page's body: each page decodes with the call's
    /// decoder where the response arrives, then `page` reads its items and metadata.
    ///
    /// The body's `Decodable` conformance must not be isolated to an actor: pages decode off the
    /// caller. For a plain model of an app target with main-actor default isolation, give the
    /// untyped call and `PageDecoder.array()` made on the main actor instead:
    /// `Pager(call: typed.call, strategy: strategy, decoder: .array(), id: \Book.id)`. A body that
    /// is a bare array of items makes its page with `{ items in Page(items: items) }`.
    ///
    /// ```swift
    /// let pager = Pager(call: api.books(), strategy: .pageNumber(pageSize: 20), id: \Book.id) { (body: BookPage) in
    ///     Page(items: body.items, totalPages: body.totalPages)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - call: the list's typed call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - page: how a decoded body becomes a page.
    public convenience init<Body: Decodable & SendableMetatype, ErrorBody>(
        call: TypedCall<Body, ErrorBody>,
        strategy: PagingStrategy,
        page: @escaping @Sendable (Body) throws -> Page<Item>
    ) {
        self.init(call: call.call, strategy: strategy, decoder: Self.pageDecoder(call, page))
    }

    /// A pager over a typed call, dropping an item whose `id` an earlier item already has; see
    /// ``init(call:strategy:page:)``.
    public convenience init<Body: Decodable & SendableMetatype, ErrorBody, ID: Hashable & Sendable>(
        call: TypedCall<Body, ErrorBody>,
        strategy: PagingStrategy,
        id: any KeyPath<Item, ID> & Sendable,
        page: @escaping @Sendable (Body) throws -> Page<Item>
    ) {
        self.init(call: call.call, strategy: strategy, decoder: Self.pageDecoder(call, page), id: id)
    }

    private static func pageDecoder<Body: Decodable & SendableMetatype, ErrorBody>(
        _ call: TypedCall<Body, ErrorBody>,
        _ page: @escaping @Sendable (Body) throws -> Page<Item>
    ) -> PageDecoder<Item> {
        let decoder = call.effectiveDecoder
        return .decoding(Body.self, decoder: decoder, page)
    }

    /// A pager over a typed call whose body is a bare array of items, made on the main actor: the
    /// item type and decoder come from the call, and pages decode on the main actor, so a plain
    /// model of an app target with main-actor default isolation works.
    ///
    /// ```swift
    /// let books = Pager(api.books(), strategy: .pageNumber(pageSize: 20), id: \Book.id)   // TypedCall<[Book], Problem>
    /// ```
    ///
    /// - Parameters:
    ///   - call: the list's typed call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - id: the key path of an item's identity, e.g. `\Book.id`: an item whose `id` an
    ///     earlier item already has is dropped.
    @MainActor
    public convenience init<ErrorBody, ID: Hashable & Sendable>(
        _ call: TypedCall<[Item], ErrorBody>,
        strategy: PagingStrategy,
        id: KeyPath<Item, ID>
    ) where Item: Decodable {
        let decoder: PageDecoder<Item> = .array(decoder: call.effectiveDecoder)
        self.init(call: call.call, strategy: strategy, decoder: decoder, id: id)
    }
}
