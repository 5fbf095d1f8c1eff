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
///
/// The factories decode with the pager's call's ``ServerConfig/decoder`` unless given one. Made
/// on the main actor for an item type whose `Decodable` conformance is isolated to it (a plain
/// model of an app target with main-actor default isolation), `array(decoder:)` and
/// `object(itemsKey:…)` decode each
/// page on the main actor; otherwise where the response arrives.
public struct PageDecoder<Item>: Sendable {
    /// Where a page is decoded, and how, given the server's decoder.
    @usableFromInline
    enum Body: Sendable {
        case anywhere(@Sendable (NetworkResponse, JSONDecoder) throws -> Page<Item>)
        /// For item types whose conformances are isolated to the main actor: the closure is made
        /// there, and only runs there.
        case onMainActor(@MainActor @Sendable (NetworkResponse, JSONDecoder) throws -> Page<Item>)
    }

    let body: Body
    /// Where the body keeps the next page's cursor, as the server names it; `nil` when the
    /// decoder does not say (a closure of yours, a bare array).
    let nextCursorKey: String?

    /// A decoder from a closure; an error it throws that is not a ``NetworkError`` becomes
    /// ``NetworkError/decoding(_:)`` carrying the body.
    public init(_ decode: @escaping @Sendable (NetworkResponse) throws -> Page<Item>) {
        self.init(.anywhere { response, _ in try decode(response) })
    }

    @usableFromInline
    init(_ body: Body, nextCursorKey: String? = nil) {
        self.body = body
        self.nextCursorKey = nextCursorKey
    }

    /// Decodes the body as `Body`, then makes a page of it with `transform`: for wrappers of any shape.
    ///
    /// It decodes where the response arrives, so `Body`'s conformance must not be isolated to an
    /// actor; for a main-actor model write the page type `nonisolated`, or use `array(decoder:)`
    /// or `object(itemsKey:…)`.
    ///
    /// - Parameters:
    ///   - type: the body's type.
    ///   - decoder: the decoder; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    ///   - transform: makes a page of the decoded body.
    @inlinable
    public static func decoding<Body: Decodable & SendableMetatype>(
        _ type: Body.Type,
        decoder: JSONDecoder? = nil,
        _ transform: @escaping @Sendable (Body) throws -> Page<Item>
    ) -> PageDecoder {
        PageDecoder(.anywhere { response, serverDecoder in
            try transform((decoder ?? serverDecoder).decode(Body.self, from: response.data))
        })
    }
}

extension PageDecoder where Item: Sendable {
    /// Decodes `response` into a page, with a plain `JSONDecoder` where the factory was given none.
    ///
    /// A decoder made on the main actor for a main-actor model decodes only there: called
    /// elsewhere it throws ``NetworkError/decoding(_:)`` saying so.
    ///
    /// The pager decodes each page itself; tests of a custom decoder call this
    /// (`@_spi(Transport) import Salvo`).
    ///
    /// - Throws: ``NetworkError/decoding(_:)`` when the body is not a page, or the error the closure threw.
    @_spi(Transport) public func decode(_ response: NetworkResponse) throws(NetworkError) -> Page<Item> {
        try decode(response, serverDecoder: JSONDecoder())
    }

    /// Decodes `response` here, with `serverDecoder` where the factory was given no decoder.
    func decode(_ response: NetworkResponse, serverDecoder: JSONDecoder) throws(NetworkError) -> Page<Item> {
        do {
            switch body {
            case .anywhere(let decode):
                return try decode(response, serverDecoder)
            case .onMainActor(let decode):
                guard isOnMainActor() else { throw OffMainActor() }
                return try MainActor.assumeIsolated { try decode(response, serverDecoder) }
            }
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .decoding(DecodingProblem(error, body: response.data, type: [Item].self))
        }
    }

    /// Decodes `response` where this decoder may run (on the main actor for one made for a
    /// main-actor model, or when `onMainActor` asks, otherwise in place) and hands the page or the
    /// error to `completion` there.
    func decode(
        _ response: NetworkResponse,
        serverDecoder: JSONDecoder,
        onMainActor: Bool = false,
        then completion: @escaping @Sendable (Result<Page<Item>, NetworkError>) -> Void
    ) {
        let needsMainActor: Bool
        if case .onMainActor = body { needsMainActor = true } else { needsMainActor = onMainActor }
        guard needsMainActor, !isOnMainActor() else {
            completion(Result { () throws(NetworkError) in try decode(response, serverDecoder: serverDecoder) })
            return
        }
        DispatchQueue.main.async {
            completion(Result { () throws(NetworkError) in try decode(response, serverDecoder: serverDecoder) })
        }
    }
}

extension PageDecoder where Item: Decodable & SendableMetatype {
    /// A body that is a bare JSON array of items, decoded where the response arrives.
    ///
    /// - Parameter decoder: the decoder; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    @inlinable
    public static func array(decoder: JSONDecoder? = nil) -> PageDecoder {
        PageDecoder(.anywhere { response, serverDecoder in try arrayPage(of: response, decoder: decoder ?? serverDecoder) })
    }

    /// A body that is a JSON object holding the items under `itemsKey` and, optionally, metadata,
    /// decoded where the response arrives.
    ///
    /// Each key may be a dotted path into nested objects (`"meta.next_cursor"`), named as the
    /// server sends it: the decoder's key decoding strategy (`.convertFromSnakeCase`, or your
    /// own) renames the keys the same way it renames the body's, so pages read the same under
    /// every strategy. A metadata key that is absent, `null` or of another type leaves that field
    /// `nil`; a missing items key is a decoding error. Pass `nil` to ignore a metadata key.
    ///
    /// - Parameters:
    ///   - itemsKey: where the items array is.
    ///   - totalCountKey: where the number of items in the whole list is.
    ///   - totalPagesKey: where the number of pages is.
    ///   - nextCursorKey: where the next page's cursor is (a string or a number).
    ///   - hasMoreKey: where a boolean "more pages follow" flag is.
    ///   - decoder: decodes the body; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    @inlinable // specialised for `Item` in the caller's module
    public static func object(
        itemsKey: String = "items",
        totalCountKey: String? = "total",
        totalPagesKey: String? = "total_pages",
        nextCursorKey: String? = "next_cursor",
        hasMoreKey: String? = "has_more",
        decoder: JSONDecoder? = nil
    ) -> PageDecoder {
        let keys = KeyedPageBody<Item>.Keys(items: itemsKey, totalCount: totalCountKey, totalPages: totalPagesKey, nextCursor: nextCursorKey, hasMore: hasMoreKey)
        return PageDecoder(.anywhere { response, serverDecoder in try objectPage(of: response, keys: keys, decoder: decoder ?? serverDecoder) }, nextCursorKey: nextCursorKey)
    }
}

// `array` and `object` exist once per isolation, the decoding itself once (below). One factory
// cannot serve both: a decoder that runs where the response arrives is a `@Sendable` closure
// capturing `Item`'s conformance, which needs `Item: SendableMetatype`, and that requirement
// refuses a conformance isolated to the main actor (SE-0470); the main-actor factory makes its
// closure on the main actor instead, where such a conformance may be used.
extension PageDecoder where Item: Decodable {
    /// The page of a body that is a bare JSON array of items.
    @inlinable
    static func arrayPage(of response: NetworkResponse, decoder: JSONDecoder) throws -> Page<Item> {
        Page(items: try decoder.decode([Item].self, from: response.data))
    }

    /// The page of a JSON object body holding the items and metadata under `keys`.
    @inlinable
    static func objectPage(of response: NetworkResponse, keys: KeyedPageBody<Item>.Keys, decoder: JSONDecoder) throws -> Page<Item> {
        try decoder.decode(KeyedPageBody<Item>.self, from: response.data, configuration: keys.named(by: decoder)).page
    }
}

extension PageDecoder where Item: Decodable {
    /// A body that is a bare JSON array of items, decoded on the main actor: chosen from the main
    /// actor for a model whose `Decodable` conformance is isolated to it.
    ///
    /// - Parameter decoder: the decoder; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    @MainActor
    public static func array(decoder: JSONDecoder? = nil) -> PageDecoder {
        PageDecoder(.onMainActor { response, serverDecoder in try arrayPage(of: response, decoder: decoder ?? serverDecoder) })
    }

    /// A JSON object body holding the items under `itemsKey`, decoded on the main actor: chosen
    /// from the main actor for a model whose `Decodable` conformance is isolated to it.
    ///
    /// - Parameters:
    ///   - itemsKey: where the items array is.
    ///   - totalCountKey: where the number of items in the whole list is.
    ///   - totalPagesKey: where the number of pages is.
    ///   - nextCursorKey: where the next page's cursor is (a string or a number).
    ///   - hasMoreKey: where a boolean "more pages follow" flag is.
    ///   - decoder: decodes the body; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    @MainActor
    public static func object(
        itemsKey: String = "items",
        totalCountKey: String? = "total",
        totalPagesKey: String? = "total_pages",
        nextCursorKey: String? = "next_cursor",
        hasMoreKey: String? = "has_more",
        decoder: JSONDecoder? = nil
    ) -> PageDecoder {
        let keys = KeyedPageBody<Item>.Keys(items: itemsKey, totalCount: totalCountKey, totalPages: totalPagesKey, nextCursor: nextCursorKey, hasMore: hasMoreKey)
        return PageDecoder(.onMainActor { response, serverDecoder in try objectPage(of: response, keys: keys, decoder: decoder ?? serverDecoder) }, nextCursorKey: nextCursorKey)
    }
}

/// Why a page decoder made for a main-actor model did not decode: it was asked off the main actor.
private struct OffMainActor: Error, CustomStringConvertible {
    var description: String {
        "this page decoder was made on the main actor for a model isolated to it; decode with it on the main actor"
    }
}
