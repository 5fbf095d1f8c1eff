import Dispatch

extension Pager {
    /// Calls `handler` on the main actor with the current state, then after every change, in order.
    ///
    /// ```swift
    /// @MainActor final class BooksViewModel {
    ///     var rows: [Book] = []
    ///     func bind(_ pager: Pager<Book>) {
    ///         pager.observe { [weak self] state in self?.rows = state.items }
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: an observation to cancel; it lasts as long as the pager otherwise.
    @discardableResult
    public func observe(_ handler: @escaping @MainActor @Sendable (PagingState<Item>) -> Void) -> StateObservation {
        loader.observe(handler)
    }

    /// An async sequence of snapshots: the current state, then each change. Each call makes a
    /// new sequence; it ends when the pager is released.
    ///
    /// A reader that falls behind gets the newest state, never a stale one. This needs no run
    /// loop, so it suits command-line programs:
    /// ```swift
    /// for await state in pager.states() where !state.isLoading {
    ///     print("\(state.items.count) items")
    ///     if !state.hasMore { break }
    /// }
    /// ```
    public func states() -> AsyncStream<PagingState<Item>> {
        loader.states()
    }
}
