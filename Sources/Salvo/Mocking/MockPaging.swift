import Foundation

/// How a paged mock route (`MockRoute.pages(_:of:paging:body:encoder:)`) splits an array into
/// pages: the paging of a real server, one for each built-in ``PagingStrategy``, so a ``Pager``
/// with the matching strategy walks the whole array with no server.
///
/// | mock paging | the pager's strategy | the request asks with |
/// |---|---|---|
/// | `.pageNumber(pageSize: 20)` | `.pageNumber(pageSize: 20)` | `?page=2&per_page=20` |
/// | `.offset(limit: 20)` | `.offset(limit: 20)` | `?offset=20&limit=20` |
/// | `.cursor(pageSize: 20)` | `.cursor(from: .body)` or `.cursor(from: .header("X-Next-Cursor"))` | `?cursor=…` |
/// | `.linkHeader(pageSize: 20)` | `.linkHeader()` | the `rel="next"` link it sent |
///
/// A page size or position the request sends wins over the one given here, as on a server. A
/// position past the end gives an empty page; a malformed one answers `400` with `{"error": …}`.
public struct MockPaging: Sendable {
    enum Style: Sendable {
        case pageNumber(firstPage: Int, pageName: String, pageSizeName: String?)
        case offset(offsetName: String, limitName: String)
        case cursor(queryName: String, pageSizeName: String)
        case linkHeader(pageName: String, pageSizeName: String)
    }

    /// How each page's body is laid out.
    public enum Body: Sendable, Hashable {
        /// `{"items": […], "total": 95, "has_more": true, …}`: what `PageDecoder.object()`
        /// reads by default. Page numbers add `page` and `total_pages`, offsets `offset`, cursors
        /// `next_cursor` (`null` on the last page).
        case object
        /// A bare JSON array of the page's items: what `PageDecoder.array()` reads.
        case array
    }

    let style: Style
    let pageSize: Int

    /// Numbered pages: `?page=1&per_page=20`, then `page=2`, …
    public static func pageNumber(
        pageSize: Int = 20,
        firstPage: Int = 1,
        pageName: String = "page",
        pageSizeName: String? = "per_page"
    ) -> MockPaging {
        MockPaging(style: .pageNumber(firstPage: firstPage, pageName: pageName, pageSizeName: pageSizeName), pageSize: pageSize)
    }

    /// Offsets: `?offset=0&limit=20`, then `offset=20`, …
    public static func offset(limit: Int = 20, offsetName: String = "offset", limitName: String = "limit") -> MockPaging {
        MockPaging(style: .offset(offsetName: offsetName, limitName: limitName), pageSize: limit)
    }

    /// Cursors: the first page has none; each page names the next one's in the body's
    /// `next_cursor` and the `X-Next-Cursor` header, absent on the last page.
    public static func cursor(pageSize: Int = 20, queryName: String = "cursor", pageSizeName: String = "limit") -> MockPaging {
        MockPaging(style: .cursor(queryName: queryName, pageSizeName: pageSizeName), pageSize: pageSize)
    }

    /// RFC 8288 `Link` headers: each page but the last links its `rel="next"` page
    /// (`?page=2&per_page=20` on the request's own URL).
    public static func linkHeader(pageSize: Int = 20, pageName: String = "page", pageSizeName: String = "per_page") -> MockPaging {
        MockPaging(style: .linkHeader(pageName: pageName, pageSizeName: pageSizeName), pageSize: pageSize)
    }

    /// The page of `items` that `request` asks for.
    func response<Item: Encodable>(to request: MockRequest, items: [Item], body: Body, encoder: JSONEncoder) -> MockResponse {
        let query = request.query
        let window: Window
        do throws(BadQuery) {
            window = try self.window(for: query)
        } catch {
            return .json(["error": error.message], status: 400)
        }
        // Sizes and positions come from the request: no arithmetic here may overflow.
        let start = min(window.start, items.count)
        let end = start + min(window.size, items.count - start)
        let pageItems = Array(items[start..<end])
        let hasMore = end < items.count
        var headers: HTTPHeaders = ["X-Total-Count": String(items.count)]
        var metadata: [(String, MockPageBody<Item>.Value)] = [("total", .int(items.count)), ("has_more", .bool(hasMore))]
        switch style {
        case .pageNumber:
            metadata += [("page", .int(window.number)), ("total_pages", .int(items.count / window.size + (items.count % window.size == 0 ? 0 : 1)))]
        case .offset:
            metadata.append(("offset", .int(window.start)))
        case .cursor:
            let next = hasMore ? String(end) : nil
            metadata.append(("next_cursor", .string(next)))
            if let next { headers["X-Next-Cursor"] = next }
        case .linkHeader(let pageName, let pageSizeName):
            if hasMore, let next = link(to: window.number + 1, of: request, pageName: pageName, pageSizeName: pageSizeName, size: window.size) {
                headers["Link"] = "<\(next)>; rel=\"next\""
            }
        }
        switch body {
        case .object: return .json(MockPageBody(items: pageItems, metadata: metadata), headers: headers, encoder: encoder)
        case .array: return .json(pageItems, headers: headers, encoder: encoder)
        }
    }

    /// Which items a request asks for: from `start`, `size` of them; `number` is the page number
    /// for the styles that count pages.
    private struct Window {
        let start: Int
        let size: Int
        let number: Int
    }

    private struct BadQuery: Error {
        let message: String
    }

    private func window(for query: [String: String]) throws(BadQuery) -> Window {
        let fallbackSize = max(1, pageSize)
        switch style {
        case .pageNumber(let firstPage, let pageName, let pageSizeName):
            var size = fallbackSize
            if let pageSizeName { size = try number(pageSizeName, in: query, atLeast: 1) ?? fallbackSize }
            let page = try number(pageName, in: query, atLeast: firstPage) ?? firstPage
            return Window(start: Self.product(page - firstPage, size), size: size, number: page)
        case .offset(let offsetName, let limitName):
            let size = try number(limitName, in: query, atLeast: 1) ?? fallbackSize
            return Window(start: try number(offsetName, in: query, atLeast: 0) ?? 0, size: size, number: 0)
        case .cursor(let queryName, let pageSizeName):
            let size = try number(pageSizeName, in: query, atLeast: 1) ?? fallbackSize
            let start = try number(queryName, in: query, atLeast: 0) ?? 0
            return Window(start: start, size: size, number: 0)
        case .linkHeader(let pageName, let pageSizeName):
            let size = try number(pageSizeName, in: query, atLeast: 1) ?? fallbackSize
            let page = try number(pageName, in: query, atLeast: 1) ?? 1
            return Window(start: Self.product(page - 1, size), size: size, number: page)
        }
    }

    /// The query item `name` as a whole number no smaller than `minimum`; `nil` when absent.
    private func number(_ name: String, in query: [String: String], atLeast minimum: Int) throws(BadQuery) -> Int? {
        guard let text = query[name] else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw BadQuery(message: "query item \(name)=\"\(text)\" must be a whole number of at least \(minimum)")
        }
        return value
    }

    /// `a × b`, or `Int.max` when that overflows: a page far past the end is simply empty.
    private static func product(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : result
    }

    /// The request's own URL asking for page `page`, its other query items kept.
    private func link(to page: Int, of request: MockRequest, pageName: String, pageSizeName: String, size: Int) -> String? {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        var items = (components.queryItems ?? []).filter { $0.name != pageName && $0.name != pageSizeName }
        items += [URLQueryItem(name: pageName, value: String(page)), URLQueryItem(name: pageSizeName, value: String(size))]
        components.queryItems = items
        return components.url?.absoluteString
    }
}

/// A page body: the items under `items`, then the metadata in order.
private struct MockPageBody<Item: Encodable>: Encodable {
    enum Value {
        case int(Int)
        case bool(Bool)
        case string(String?)
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let items: [Item]
    let metadata: [(String, Value)]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key("items"))
        for (name, value) in metadata {
            switch value {
            case .int(let number): try container.encode(number, forKey: Key(name))
            case .bool(let flag): try container.encode(flag, forKey: Key(name))
            case .string(let text?): try container.encode(text, forKey: Key(name))
            case .string(nil): try container.encodeNil(forKey: Key(name))
            }
        }
    }
}
