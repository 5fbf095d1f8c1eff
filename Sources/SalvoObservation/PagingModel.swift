import Observation
import Salvo

/// A ``Pager`` as an `@Observable` model for SwiftUI: the items, the loading flags, the error, and
/// the operations a list view needs, all on the main actor.
///
/// ```swift
/// struct BooksView: View {
///     @State private var books = PagingModel(pager: api.bookPager())
///
///     var body: some View {
///         List(books.items) { book in
///             Text(book.title).onAppear { books.loadNextPageIfNeeded(currentItem: book) }
///         }
///         .refreshable { await books.refresh() }
///         .task { await books.loadFirstPageIfNeeded() }
///     }
/// }
/// ```
///
/// The model shows the pager's latest state: each change of the pager reaches it on the main
/// actor, and a property is only set when its value changed, so SwiftUI redraws what changed
/// and nothing else. Items compare by value when they are `Equatable`; otherwise ``items`` is set
/// whenever the pager rebuilt its list (each page that landed), since a page may bring the same
/// ids with new contents.
/// The model stops observing when it is released; the pager lives on with whoever else holds it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class PagingModel<Item: Sendable> {
    /// The items loaded so far, in order; an error never removes them.
    public private(set) var items: [Item]
    /// Whether a page is loading: the next page, or the first one for a refresh.
    public private(set) var isLoading: Bool
    /// Whether a refresh is in flight; ``items`` are still the old ones until it lands.
    public private(set) var isRefreshing: Bool
    /// The error of the last load that failed; `nil` again once a load succeeds.
    public private(set) var error: NetworkError?
    /// Whether the list may have more pages.
    public private(set) var hasMore: Bool

    /// The pager behind the model.
    @ObservationIgnored public let pager: Pager<Item>
    @ObservationIgnored private var observation: StateObservation?

    /// A model showing `pager`, starting from its current state.
    public init(pager: Pager<Item>) {
        self.pager = pager
        let state = pager.state
        items = state.items
        isLoading = state.isLoading
        isRefreshing = state.isRefreshing
        error = state.error
        hasMore = state.hasMore
        // Each notification reads the pager's newest state, so one that arrives late never
        // brings an older state back after `refresh()` already showed the result.
        observation = pager.observe { [weak self] _ in self?.showLatestState() }
    }

    deinit {
        observation?.cancel()
    }

    /// Loads the first page unless pages are loaded or loading: for `.task { }`, which runs again
    /// each time the view appears. After a failed first page it tries again.
    public func loadFirstPageIfNeeded() async {
        let state = pager.state
        guard state.pageCount == 0, !state.isLoading, state.hasMore else { return }
        await loadNextPage()
    }

    /// Loads the next page and appends it; returns when it has landed or failed. For a "Load more"
    /// button; a scrolling list calls ``loadNextPageIfNeeded(currentItem:distance:)`` instead.
    public func loadNextPage() async {
        await pager.loadNextPage()
        showLatestState()
    }

    /// For infinite scrolling: starts loading the next page when `item` is within `distance`
    /// items of the end. Call it as each row appears; it does nothing while a page loads, once
    /// the list is exhausted, or after a page failed (offer ``retry()`` instead).
    ///
    /// - Returns: whether a load was started.
    @discardableResult
    public func loadNextPageIfNeeded(currentItem item: Item, distance: Int = 5) -> Bool {
        let isStarted = pager.loadNextPageIfNeeded(currentItem: item, distance: distance)
        if isStarted { showLatestState() }
        return isStarted
    }

    /// Returns once no page is loading, with the model showing the result: for code that starts a
    /// load with ``loadNextPageIfNeeded(currentItem:distance:)`` and must see it land (a test, a
    /// command-line program). It starts nothing.
    public func waitForLoad() async {
        for await state in pager.states() where !state.isLoading { break }
        showLatestState()
    }

    /// Loads the first page again and replaces the items when it lands; returns then, for
    /// `.refreshable { }`. A page loading meanwhile is cancelled; the old items stay until the
    /// new ones arrive, and stay if the refresh fails.
    public func refresh() async {
        await pager.refresh()
        showLatestState()
    }

    /// Repeats the load that failed: the refresh, or the page where loading stopped.
    public func retry() async {
        await pager.retry()
        showLatestState()
    }

    /// Sets each property whose value differs from the pager's newest state.
    private func showLatestState() {
        let state = pager.state
        if !Self.isSame(items, state.items) { items = state.items }
        if isLoading != state.isLoading { isLoading = state.isLoading }
        if isRefreshing != state.isRefreshing { isRefreshing = state.isRefreshing }
        if hasMore != state.hasMore { hasMore = state.hasMore }
        if !Self.isSame(error, state.error) { error = state.error }
    }

    private static func isSame(_ old: [Item], _ new: [Item]) -> Bool {
        guard old.count == new.count else { return false }
        if old.isEmpty || sharesStorage(old, new) { return true }
        guard Item.self is any Equatable.Type else { return false }
        return zip(old, new).allSatisfy { old, new in (old as? any Equatable)?.isEqual(to: new) == true }
    }

    /// Whether both arrays are copies of one storage: the pager hands out the same storage until
    /// it changes its list, and storage shared by copies is never changed in place.
    private static func sharesStorage(_ old: [Item], _ new: [Item]) -> Bool {
        old.withUnsafeBufferPointer { old in new.withUnsafeBufferPointer { new in old.baseAddress == new.baseAddress } }
    }

    /// Errors are the same when they describe the same failure: a retry that fails the same way
    /// does not redraw the error view.
    private static func isSame(_ old: NetworkError?, _ new: NetworkError?) -> Bool {
        switch (old, new) {
        case (nil, nil): return true
        case let (old?, new?): return String(reflecting: old) == String(reflecting: new)
        default: return false
        }
    }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this value.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
