extension Pager {
    /// Loads page after page until the list ends and returns every item: for short lists and scripts.
    ///
    /// ```swift
    /// let everyTag = try await tagsPager.loadAll(maxPages: 20)
    /// ```
    ///
    /// It continues from the pages already loaded; the items stay in ``state`` as usual.
    ///
    /// - Parameter maxPages: the most pages the list may have; a list with more stops there, so a
    ///   server that never says "last page" cannot loop forever.
    /// - Returns: the items of every page.
    /// - Throws: the error of a page that failed (the pages before it are kept), or
    ///   ``NetworkError/unacceptableResponse(_:)`` when more than `maxPages` pages exist.
    public func loadAll(maxPages: Int = 100) async throws(NetworkError) -> [Item] {
        var state = self.state
        while state.hasMore {
            guard state.pageCount < maxPages else {
                throw .unacceptableResponse(ResponseProblem(
                    "the list has more than \(maxPages) pages; raise loadAll(maxPages:) or load page by page with loadNextPage()"
                ))
            }
            await loadNextPage()
            state = self.state
            if let error = state.error { throw error }
        }
        // The end of the list, or a next page the strategy refused (the error says why).
        if let error = state.error { throw error }
        return state.items
    }
}
