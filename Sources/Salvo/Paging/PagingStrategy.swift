/// How a list is paged: which call fetches the first page, and which fetches the page after a
/// given one (or that the list has ended).
///
/// Four strategies are built in; a custom one is two closures. Either way every page is the
/// pager's own ``NetCall`` with its endpoint changed, fired through the call's firing function.
///
/// ```swift
/// let strategy: PagingStrategy = .pageNumber(pageSize: 20)          // ?page=1&per_page=20
/// let offsets: PagingStrategy = .offset(limit: 50)                  // ?offset=0&limit=50
/// let cursors: PagingStrategy = .cursor(from: .header("X-Next-Cursor"))
/// let links: PagingStrategy = .linkHeader()                         // Link: <…>; rel="next"
///
/// let custom = PagingStrategy(
///     firstPage: { call in call },
///     nextPage: { page in
///         guard let next = page.response.headers["X-Next-Page"] else { return nil }
///         var call = page.baseCall
///         call.endpoint = call.endpoint.setting(query: "p", to: next)
///         return call
///     }
/// )
/// ```
public struct PagingStrategy: Sendable {
    private let first: @Sendable (NetCall) throws(NetworkError) -> NetCall
    private let next: @Sendable (LoadedPage) throws(NetworkError) -> NetCall?
    /// What the strategy reads on a page to find the next one; a ``Pager`` whose first page
    /// lacks it logs so, once. `nil` for a custom strategy, and for the counted ones, which end
    /// on a short page when the metadata is missing.
    let nextPageKey: NextPageKey?

    /// What a page carries for a strategy to find the page after it.
    enum NextPageKey: Sendable {
        /// ``Page/nextCursor``, which the page decoder reads from the body.
        case cursorInBody
        /// The response header with this name.
        case header(String)
        /// The link of the `Link` header with this relation.
        case link(relation: String)
    }

    /// A strategy from two closures.
    ///
    /// - Parameters:
    ///   - firstPage: the call for the first page, given the pager's call.
    ///   - nextPage: the call for the page after the one described, or `nil` when the list ends.
    ///     Throw ``NetworkError/invalidRequest(_:)`` when the server pointed somewhere the pager
    ///     must not go; the pager shows the error and stops.
    public init(
        firstPage: @escaping @Sendable (NetCall) throws(NetworkError) -> NetCall,
        nextPage: @escaping @Sendable (LoadedPage) throws(NetworkError) -> NetCall?
    ) {
        self.init(firstPage: firstPage, nextPage: nextPage, reading: nil)
    }

    /// A strategy from two closures that finds the next page in `nextPageKey`.
    init(
        firstPage: @escaping @Sendable (NetCall) throws(NetworkError) -> NetCall,
        nextPage: @escaping @Sendable (LoadedPage) throws(NetworkError) -> NetCall?,
        reading nextPageKey: NextPageKey?
    ) {
        first = firstPage
        next = nextPage
        self.nextPageKey = nextPageKey
    }

    /// The call that fetches the first page of `call`'s list.
    func firstPage(of call: NetCall) throws(NetworkError) -> NetCall {
        try first(call)
    }

    /// The call that fetches the page after `page`, or `nil` when the list has ended.
    func nextPage(after page: LoadedPage) throws(NetworkError) -> NetCall? {
        try next(page)
    }
}

extension PagingStrategy {
    /// Numbered pages: `?page=1&per_page=20`, then `page=2`, …
    ///
    /// The list ends when the page's metadata says so (``Page/hasMore``, ``Page/totalPages``,
    /// ``Page/totalCount``), otherwise when a page brings fewer than `pageSize` items.
    ///
    /// - Parameters:
    ///   - pageSize: items per page, sent as `pageSizeName`.
    ///   - firstPage: the number of the first page: 1 for most servers, 0 for some.
    ///   - pageName: the query name of the page number.
    ///   - pageSizeName: the query name of the page size; `nil` sends none (the server's default
    ///     must then equal `pageSize`).
    public static func pageNumber(
        pageSize: Int = 20,
        firstPage: Int = 1,
        pageName: String = "page",
        pageSizeName: String? = "per_page"
    ) -> PagingStrategy {
        @Sendable func call(_ base: NetCall, page: Int) -> NetCall {
            var endpoint = base.endpoint.setting(query: pageName, to: String(page))
            if let pageSizeName { endpoint = endpoint.setting(query: pageSizeName, to: String(pageSize)) }
            var call = base
            call.endpoint = endpoint  // one assignment: a call rebuilds its request on each
            return call
        }
        return PagingStrategy(
            firstPage: { base in call(base, page: firstPage) },
            nextPage: { page in
                isLast(page, pageSize: pageSize) ? nil : call(page.baseCall, page: firstPage + page.index + 1)
            }
        )
    }

    /// Offsets: `?offset=0&limit=50`, then `offset=50`, …
    ///
    /// The next offset counts the items received, so a short page never skips items. The list
    /// ends as for ``pageNumber(pageSize:firstPage:pageName:pageSizeName:)``.
    ///
    /// - Parameters:
    ///   - limit: items per page, sent as `limitName`.
    ///   - offsetName: the query name of the offset.
    ///   - limitName: the query name of the limit.
    public static func offset(limit: Int = 20, offsetName: String = "offset", limitName: String = "limit") -> PagingStrategy {
        @Sendable func call(_ base: NetCall, offset: Int) -> NetCall {
            var call = base
            call.endpoint = call.endpoint
                .setting(query: offsetName, to: String(offset))
                .setting(query: limitName, to: String(limit))
            return call
        }
        return PagingStrategy(
            firstPage: { base in call(base, offset: 0) },
            nextPage: { page in
                isLast(page, pageSize: limit) ? nil : call(page.baseCall, offset: page.itemsBefore + page.itemCount)
            }
        )
    }

    /// Whether a counted page (page number or offset) is the last one.
    private static func isLast(_ page: LoadedPage, pageSize: Int) -> Bool {
        if page.itemCount == 0 { return true }
        return page.metadataSaysLast ?? (page.itemCount < pageSize)
    }
}
