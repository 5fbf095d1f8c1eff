import Foundation

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

extension Pager {
    /// For infinite scrolling: starts loading the next page when `item` is within `distance`
    /// items of the end of the list; see ``loadNextPageIfNeeded(currentIndex:distance:)``.
    ///
    /// ```swift
    /// List(model.books) { book in
    ///     BookRow(book).onAppear { pager.loadNextPageIfNeeded(currentItem: book) }
    /// }
    /// ```
    ///
    /// Items are told apart by the pager's `id:` key path, else by their `Identifiable` identity
    /// (read where this is called, so a main-actor model's conformance works on the main actor).
    ///
    /// - Returns: whether a load was started; `false` when the item is not in the list or items
    ///   have no identity.
    @discardableResult
    public func loadNextPageIfNeeded(currentItem item: Item, distance: Int = 5) -> Bool {
        guard let identity = identity(of: item) else { return false }
        let items = self.items
        let window = items.suffix(max(0, distance) + 1)
        guard window.contains(where: { self.identity(of: $0) == identity }) else { return false }
        return loadNextPageIfNeeded(currentIndex: items.count - 1, distance: distance)
    }

    /// What tells `item` apart: the `id:` key path the pager was made with, or `Identifiable`.
    private func identity(of item: Item) -> AnyHashable? {
        if let identify, !identify.isOnMainActor || isOnMainActor() { return identify(item) }
        guard let identifiable = item as? any Identifiable else { return nil }
        return identityOf(identifiable)
    }
}

/// `value`'s identity, type-erased; opens the existential it is called with.
private func identityOf<Value: Identifiable>(_ value: Value) -> AnyHashable {
    AnyHashable(value.id)
}
