import Foundation

extension Pager {
    /// A pager over a typed call whose value is one page's body: each page decodes with the call's
    /// decoder where the response arrives, then `page` reads its items and metadata.
    ///
    /// Made on the main actor with a body whose `Decodable` conformance is isolated to it (a plain
    /// model of an app target with main-actor default isolation), the same spelling decodes each
    /// page there and runs `page` there. A body that is a bare array of items makes its page with
    /// `{ items in Page(items: items) }`.
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
        typedHandlers.withLock { $0 = call.typedHandOff }
    }

    /// A pager over a typed call, dropping an item whose `id` an earlier item already has; see
    /// `init(call:strategy:page:)`.
    public convenience init<Body: Decodable & SendableMetatype, ErrorBody, ID: Hashable & Sendable>(
        call: TypedCall<Body, ErrorBody>,
        strategy: PagingStrategy,
        id: any KeyPath<Item, ID> & Sendable,
        page: @escaping @Sendable (Body) throws -> Page<Item>
    ) {
        self.init(call: call.call, strategy: strategy, decoder: Self.pageDecoder(call, page), id: id)
        typedHandlers.withLock { $0 = call.typedHandOff }
    }

    /// A pager over a typed call whose body's `Decodable` conformance is isolated to the main
    /// actor: each page decodes there and `page` runs there; see `init(call:strategy:page:)`.
    ///
    /// - Parameters:
    ///   - call: the list's typed call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - page: how a decoded body becomes a page, on the main actor.
    @MainActor
    public convenience init<Body: Decodable, ErrorBody>(
        call: TypedCall<Body, ErrorBody>,
        strategy: PagingStrategy,
        page: @escaping @MainActor @Sendable (Body) throws -> Page<Item>
    ) {
        self.init(call: call.call, strategy: strategy, decoder: Self.mainActorPageDecoder(call, page))
        typedHandlers.withLock { $0 = call.typedHandOff }
    }

    /// A pager over a typed call whose body and items are isolated to the main actor, dropping an
    /// item whose `id` an earlier item already has; see `init(call:strategy:page:)`.
    ///
    /// - Parameters:
    ///   - call: the list's typed call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - id: the key path of an item's identity, e.g. `\Book.id`.
    ///   - page: how a decoded body becomes a page, on the main actor.
    @MainActor
    public convenience init<Body: Decodable, ErrorBody, ID: Hashable & Sendable>(
        call: TypedCall<Body, ErrorBody>,
        strategy: PagingStrategy,
        id: KeyPath<Item, ID>,
        page: @escaping @MainActor @Sendable (Body) throws -> Page<Item>
    ) {
        self.init(call: call.call, strategy: strategy, decoder: Self.mainActorPageDecoder(call, page), id: id)
        typedHandlers.withLock { $0 = call.typedHandOff }
    }

    private static func mainActorPageDecoder<Body: Decodable, ErrorBody>(
        _ call: TypedCall<Body, ErrorBody>,
        _ page: @escaping @MainActor @Sendable (Body) throws -> Page<Item>
    ) -> PageDecoder<Item> {
        let decoder = call.effectiveDecoder
        return PageDecoder(.onMainActor { response, _ in try page(decoder.decode(Body.self, from: response.data)) })
    }

    private static func pageDecoder<Body: Decodable & SendableMetatype, ErrorBody>(
        _ call: TypedCall<Body, ErrorBody>,
        _ page: @escaping @Sendable (Body) throws -> Page<Item>
    ) -> PageDecoder<Item> {
        let decoder = call.effectiveDecoder
        return .decoding(Body.self, decoder: decoder, page)
    }

    /// A pager over a typed call whose body is a bare array of items, made on the main actor: the
    /// item type and decoder come from the call, and pages decode on the main actor. `Item` must be
    /// `Sendable` with a `Decodable` conformance that is not isolated to the main actor; for a plain
    /// model of an app target with main-actor default isolation use `Pager(call:strategy:id:page:)`.
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
        typedHandlers.withLock { $0 = call.typedHandOff }
    }
}
