import Foundation

extension PagingStrategy {
    /// Where the next page's cursor comes from.
    public enum CursorSource: Sendable, Hashable {
        /// ``Page/nextCursor``, which the ``PageDecoder`` read from the body.
        case body
        /// The response header with this name (any case), such as `X-Next-Cursor`.
        case header(String)
    }

    /// Cursors: the first page is the call as given; each next page sends the cursor the previous
    /// one returned, as `?cursor=…`.
    ///
    /// The list ends when there is no cursor (absent, `null` or empty), when ``Page/hasMore`` is
    /// `false`, or when the server returns the cursor it was just sent (which would load the same
    /// page forever). Put a page size in the call's query if the server takes one. When the first
    /// page has no cursor key (or header) at all, each ``LoggingAction`` of the call says so once.
    ///
    /// ```swift
    /// let pager = Pager(call: feedCall, strategy: .cursor(from: .body),
    ///                   decoder: .object(itemsKey: "items", nextCursorKey: "next_cursor"))
    /// ```
    ///
    /// - Parameters:
    ///   - queryName: the query name the cursor is sent as.
    ///   - source: where the next cursor is read.
    public static func cursor(queryName: String = "cursor", from source: CursorSource = .body) -> PagingStrategy {
        PagingStrategy(
            firstPage: { base in
                var call = base
                call.endpoint = call.endpoint.setting(query: queryName, to: nil)
                return call
            },
            nextPage: { page in
                guard page.hasMore != false else { return nil }
                let cursor: String?
                switch source {
                case .body: cursor = page.nextCursor
                case .header(let name): cursor = page.response.headers[name]
                }
                guard let cursor, !cursor.isEmpty,
                      page.call.endpoint.query.last(where: { $0.name == queryName })?.value != cursor else { return nil }
                var call = page.baseCall
                call.endpoint = call.endpoint.setting(query: queryName, to: cursor)
                return call
            },
            reading: {
                switch source {
                case .body: .cursorInBody
                case .header(let name): .header(name)
                }
            }()
        )
    }
}
