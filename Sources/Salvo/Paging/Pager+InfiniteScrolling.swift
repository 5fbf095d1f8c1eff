extension Pager {
    /// For infinite scrolling: starts loading the next page when the item at `index` is within
    /// `distance` items of the end of the list.
    ///
    /// Call it as each row appears. It does nothing while a load is in flight, once the list is
    /// exhausted, or after a next page failed (show a retry button that calls ``retry()``;
    /// scrolling does not hammer a failing server).
    ///
    /// - Returns: whether a load was started.
    @discardableResult
    public func loadNextPageIfNeeded(currentIndex index: Int, distance: Int = 5) -> Bool {
        let isNeeded = loader.read { core, inFlight in
            guard inFlight == nil, core.lastFailure != .nextPage, core.state.hasMore else { return false }
            return index >= core.state.items.count - 1 - max(0, distance)
        }
        if isNeeded { startLoadingNextPage() }
        return isNeeded
    }
}

extension Pager where Item: Identifiable {
    /// For infinite scrolling: starts loading the next page when `item` is within `distance`
    /// items of the end of the list; see ``loadNextPageIfNeeded(currentIndex:distance:)``.
    ///
    /// ```swift
    /// List(model.books) { book in
    ///     BookRow(book).onAppear { pager.loadNextPageIfNeeded(currentItem: book) }
    /// }
    /// ```
    ///
    /// - Returns: whether a load was started; `false` when the item is not in the list.
    @discardableResult
    public func loadNextPageIfNeeded(currentItem item: Item, distance: Int = 5) -> Bool {
        let items = self.items
        let window = items.suffix(max(0, distance) + 1)
        guard window.contains(where: { $0.id == item.id }) else { return false }
        return loadNextPageIfNeeded(currentIndex: items.count - 1, distance: distance)
    }
}
