/// What a ``PagingStrategy`` knows about the page that just arrived, to choose the next one.
public struct LoadedPage: Sendable {
    /// The pager's call, as it was given (the first page's query not yet set).
    public let baseCall: NetCall
    /// The call that fetched this page.
    public let call: NetCall
    /// The position of this page since the last refresh: 0 for the first page.
    public let index: Int
    /// How many items this page brought, before duplicates were dropped.
    public let itemCount: Int
    /// How many items the earlier pages brought, before duplicates were dropped: this page's offset.
    public let itemsBefore: Int
    /// The response that carried this page: status, headers and body.
    public let response: NetworkResponse
    /// ``Page/totalCount`` of this page.
    public let totalCount: Int?
    /// ``Page/totalPages`` of this page.
    public let totalPages: Int?
    /// ``Page/nextCursor`` of this page.
    public let nextCursor: String?
    /// ``Page/hasMore`` of this page.
    public let hasMore: Bool?

    /// A description of a loaded page; the pager builds these, tests of custom strategies may too
    /// (`@_spi(Transport) import Salvo`).
    @_spi(Transport) public init<Item>(page: Page<Item>, index: Int, itemsBefore: Int, call: NetCall, baseCall: NetCall, response: NetworkResponse) {
        self.baseCall = baseCall
        self.call = call
        self.index = index
        self.itemCount = page.items.count
        self.itemsBefore = itemsBefore
        self.response = response
        self.totalCount = page.totalCount
        self.totalPages = page.totalPages
        self.nextCursor = page.nextCursor
        self.hasMore = page.hasMore
    }

    /// Whether the page's metadata says the list ends here: `hasMore == false`, the last of
    /// `totalPages`, or `totalCount` items reached. `nil` when the metadata does not say.
    var metadataSaysLast: Bool? {
        if let hasMore { return !hasMore }
        if let totalPages { return index + 1 >= totalPages }
        if let totalCount { return itemsBefore + itemCount >= totalCount }
        return nil
    }
}
