import Foundation

/// Turns one response into a ``Page``: a bare JSON array, an object holding the items under a key,
/// or anything your closure reads.
///
/// ```swift
/// let bare: PageDecoder<Book> = .array()                  // [{"id": 1}, …]
/// let keyed: PageDecoder<Book> = .object()                // {"items": […], "total": 95}
/// let custom = PageDecoder<Book>.decoding(BookList.self) { body in
///     Page(items: body.data, nextCursor: body.meta.next)
/// }
/// ```
public struct PageDecoder<Item: Sendable>: Sendable {
    private let body: @Sendable (NetworkResponse) throws -> Page<Item>

    /// A decoder from a closure; an error it throws that is not a ``NetworkError`` becomes
    /// ``NetworkError/decoding(_:)`` carrying the body.
    public init(_ decode: @escaping @Sendable (NetworkResponse) throws -> Page<Item>) {
        body = decode
    }

    /// Decodes `response` into a page.
    ///
    /// - Throws: ``NetworkError/decoding(_:)`` when the body is not a page, or the error the closure threw.
    public func decode(_ response: NetworkResponse) throws(NetworkError) -> Page<Item> {
        do {
            return try body(response)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .decoding(DecodingProblem(error, body: response.data, type: Page<Item>.self))
        }
    }

    /// Decodes the body as `Body`, then makes a page of it with `transform`: for wrappers of any shape.
    @inlinable
    public static func decoding<Body: Decodable & Sendable>(
        _ type: Body.Type,
        decoder: JSONDecoder = JSONDecoder(),
        _ transform: @escaping @Sendable (Body) throws -> Page<Item>
    ) -> PageDecoder {
        PageDecoder { response in try transform(decoder.decode(Body.self, from: response.data)) }
    }
}

extension PageDecoder where Item: Decodable {
    /// A body that is a bare JSON array of items.
    @inlinable
    public static func array(decoder: JSONDecoder = JSONDecoder()) -> PageDecoder {
        PageDecoder { response in Page(items: try decoder.decode([Item].self, from: response.data)) }
    }

    /// A body that is a JSON object holding the items under `itemsKey` and, optionally, metadata.
    ///
    /// Each key may be a dotted path into nested objects (`"meta.next_cursor"`). A metadata key
    /// that is absent, `null` or of another type leaves that field `nil`; a missing items key is a
    /// decoding error. Pass `nil` to ignore a metadata key.
    ///
    /// - Parameters:
    ///   - itemsKey: where the items array is.
    ///   - totalCountKey: where the number of items in the whole list is.
    ///   - totalPagesKey: where the number of pages is.
    ///   - nextCursorKey: where the next page's cursor is (a string or a number).
    ///   - hasMoreKey: where a boolean "more pages follow" flag is.
    ///   - decoder: decodes the body.
    @inlinable // specialised for `Item` in the caller's module
    public static func object(
        itemsKey: String = "items",
        totalCountKey: String? = "total",
        totalPagesKey: String? = "total_pages",
        nextCursorKey: String? = "next_cursor",
        hasMoreKey: String? = "has_more",
        decoder: JSONDecoder = JSONDecoder()
    ) -> PageDecoder {
        let keys = KeyedPageBody<Item>.Keys(
            items: itemsKey, totalCount: totalCountKey, totalPages: totalPagesKey,
            nextCursor: nextCursorKey, hasMore: hasMoreKey
        )
        return PageDecoder { response in
            try decoder.decode(KeyedPageBody<Item>.self, from: response.data, configuration: keys).page
        }
    }
}
