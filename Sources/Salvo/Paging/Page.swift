/// One page of a list as the server sent it: its items and what it says about the rest of the list.
///
/// A ``PageDecoder`` builds it from a response; the ``PagingStrategy`` reads its metadata to find
/// the next page and to tell when the list has ended. Leave a field `nil` when the server does not
/// send it.
///
/// ```swift
/// let decoder = PageDecoder<Book>.decoding(BookList.self) { body in
///     Page(items: body.books, nextCursor: body.meta.next)
/// }
/// ```
public struct Page<Item> {
    /// The items of this page, in the server's order.
    public var items: [Item]
    /// The number of items in the whole list, when the server says.
    public var totalCount: Int?
    /// The number of pages in the whole list, when the server says.
    public var totalPages: Int?
    /// The cursor of the next page, when the body carries one (see ``PagingStrategy/cursor(queryName:from:)``).
    public var nextCursor: String?
    /// Whether more pages follow, when the server says so explicitly (a `has_more` flag).
    public var hasMore: Bool?

    /// A page from its parts.
    public init(items: [Item], totalCount: Int? = nil, totalPages: Int? = nil, nextCursor: String? = nil, hasMore: Bool? = nil) {
        self.items = items
        self.totalCount = totalCount
        self.totalPages = totalPages
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

extension Page: Sendable where Item: Sendable {}
