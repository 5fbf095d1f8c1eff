/// A snapshot of a ``Pager``: what a list view shows.
///
/// Read it at any time with ``Pager/state``, or receive every change through
/// ``Pager/observe(_:)`` or ``Pager/states()``.
///
/// ```swift
/// let state = pager.state
/// if state.items.isEmpty && state.isLoading { showSpinner() }
/// if let error = state.error { showBanner(error.localizedDescription) }
/// ```
public struct PagingState<Item: Sendable>: Sendable {
    /// The items of every page loaded since the last refresh, in order, without duplicates when
    /// the pager has an `id`.
    public var items: [Item]
    /// Whether a page is being loaded: the next page, or the first one for a refresh.
    public var isLoading: Bool
    /// Whether a refresh is in flight; the items shown are still the old ones until it lands.
    public var isRefreshing: Bool
    /// Whether the list may have more pages; `false` once the strategy found the end.
    public var hasMore: Bool
    /// The error of the last load that failed; `nil` again once a load succeeds.
    ///
    /// An error never removes items: a failed next page or refresh keeps what was shown.
    public var error: NetworkError?
    /// How many pages were loaded since the last refresh.
    public var pageCount: Int
    /// Where the last page that landed came from and how old it is, when the pager's call fires
    /// through a cache (``FiringFunction/caching(in:policy:through:clock:)``); `nil` otherwise.
    ///
    /// After ``Pager/showStoredFirstPageThenRefresh()`` showed a stored page it says `.cache`
    /// and the page's age, then `.revalidated` or `.network` once the server answered.
    public var cacheStatus: CacheStatus?

    /// A state from its parts; a new pager starts with the defaults (empty, more to load).
    package init(
        items: [Item] = [],
        isLoading: Bool = false,
        isRefreshing: Bool = false,
        hasMore: Bool = true,
        error: NetworkError? = nil,
        pageCount: Int = 0,
        cacheStatus: CacheStatus? = nil
    ) {
        self.items = items
        self.isLoading = isLoading
        self.isRefreshing = isRefreshing
        self.hasMore = hasMore
        self.error = error
        self.pageCount = pageCount
        self.cacheStatus = cacheStatus
    }
}
