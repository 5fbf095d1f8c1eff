import Foundation

/// A JSON object body whose items and metadata live under keys chosen at run time.
///
/// Inlinable, like the ``PageDecoder`` factories that use it, so that decoding a page is
/// specialised for the item type in the caller's module (as a hand-written `Decodable` page is).
@usableFromInline
struct KeyedPageBody<Item: Decodable>: DecodableWithConfiguration {
    /// Where each part of the page is, as key paths split once (dotted names reach into nested objects).
    @usableFromInline
    struct Keys: Sendable {
        @usableFromInline let items: [AnyKey]
        @usableFromInline let totalCount: [AnyKey]?
        @usableFromInline let totalPages: [AnyKey]?
        @usableFromInline let nextCursor: [AnyKey]?
        @usableFromInline let hasMore: [AnyKey]?

        @usableFromInline
        init(items: String, totalCount: String?, totalPages: String?, nextCursor: String?, hasMore: String?) {
            self.init(items: keyPath(items), totalCount: totalCount.map(keyPath), totalPages: totalPages.map(keyPath),
                      nextCursor: nextCursor.map(keyPath), hasMore: hasMore.map(keyPath))
        }

        private init(items: [AnyKey], totalCount: [AnyKey]?, totalPages: [AnyKey]?, nextCursor: [AnyKey]?, hasMore: [AnyKey]?) {
            self.items = items
            self.totalCount = totalCount
            self.totalPages = totalPages
            self.nextCursor = nextCursor
            self.hasMore = hasMore
        }

        /// These keys as a container decoded by `decoder` names them.
        ///
        /// The keys are the body's, as the server sends them; a key decoding strategy renames
        /// the body's keys before a container sees them (`next_cursor` is `nextCursor` under
        /// `.convertFromSnakeCase`), so each key is passed through the decoder's own strategy
        /// first, and pages read the same under every strategy.
        @usableFromInline
        func named(by decoder: JSONDecoder) -> Keys {
            if case .useDefaultKeys = decoder.keyDecodingStrategy { return self }
            let probe = JSONDecoder()
            probe.keyDecodingStrategy = decoder.keyDecodingStrategy
            func rename(_ path: [AnyKey]) -> [AnyKey] { renamed(path, by: probe) }
            return Keys(items: rename(items), totalCount: totalCount.map(rename), totalPages: totalPages.map(rename),
                        nextCursor: nextCursor.map(rename), hasMore: hasMore.map(rename))
        }
    }

    @usableFromInline let page: Page<Item>

    @inlinable
    init(from decoder: any Decoder, configuration keys: Keys) throws {
        let root = try decoder.container(keyedBy: AnyKey.self)
        let (itemsContainer, itemsKey) = try Self.locate(keys.items, in: root)
        var page = Page<Item>(items: try itemsContainer.decode([Item].self, forKey: itemsKey))
        page.totalCount = Self.optional(Int.self, at: keys.totalCount, in: root)
        page.totalPages = Self.optional(Int.self, at: keys.totalPages, in: root)
        page.hasMore = Self.optional(Bool.self, at: keys.hasMore, in: root)
        page.nextCursor = Self.optional(String.self, at: keys.nextCursor, in: root)
            ?? Self.optional(Int.self, at: keys.nextCursor, in: root).map(String.init)
        self.page = page
    }

    /// The container holding the last key of `path`, and that key.
    @usableFromInline
    static func locate(
        _ path: [AnyKey],
        in root: KeyedDecodingContainer<AnyKey>
    ) throws -> (KeyedDecodingContainer<AnyKey>, AnyKey) {
        var container = root
        for component in path.dropLast() {
            container = try container.nestedContainer(keyedBy: AnyKey.self, forKey: component)
        }
        return (container, path.last ?? AnyKey(""))
    }

    /// The value at `path`, or `nil` when it is absent, `null` or not a `T`.
    @usableFromInline
    static func optional<T: Decodable>(_ type: T.Type, at path: [AnyKey]?, in root: KeyedDecodingContainer<AnyKey>) -> T? {
        guard let path, let located = try? locate(path, in: root) else { return nil }
        return (try? located.0.decodeIfPresent(type, forKey: located.1)) ?? nil
    }
}

/// A coding key made from any string.
@usableFromInline
struct AnyKey: CodingKey, Sendable {
    @usableFromInline let stringValue: String
    @usableFromInline var intValue: Int? { nil }

    @usableFromInline
    init(_ string: String) {
        stringValue = string
    }

    @usableFromInline
    init(stringValue: String) {
        self.init(stringValue)
    }

    @usableFromInline
    init?(intValue: Int) {
        nil
    }
}

/// `path` as `decoder`'s key decoding strategy renames it: the strategy itself decodes a body
/// holding only that path (`{"meta": {"next_cursor": 0}}`), so a custom strategy sees the same
/// coding path it sees in a page. `path` as it is when the strategy fails.
private func renamed(_ path: [AnyKey], by decoder: JSONDecoder) -> [AnyKey] {
    var body: Any = 0
    for key in path.reversed() { body = [key.stringValue: body] }
    guard let data = try? JSONSerialization.data(withJSONObject: body),
          let probe = try? decoder.decode(KeyPathProbe.self, from: data),
          probe.path.count == path.count else { return path }
    return probe.path
}

/// The keys of a body holding one key per level, as the decoder's container names them.
private struct KeyPathProbe: Decodable {
    let path: [AnyKey]

    init(from decoder: any Decoder) throws {
        var path: [AnyKey] = []
        var container = try decoder.container(keyedBy: AnyKey.self)
        while let key = container.allKeys.first {
            path.append(key)
            guard let nested = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: key) else { break }
            container = nested
        }
        self.path = path
    }
}

/// The keys of a dotted path (`"meta.next_cursor"`); outside the generic page body, so that mapping
/// over it captures no item type.
private func keyPath(_ dotted: String) -> [AnyKey] {
    let components = dotted.split(separator: ".").map { AnyKey(String($0)) }
    return components.isEmpty ? [AnyKey(dotted)] : components
}
