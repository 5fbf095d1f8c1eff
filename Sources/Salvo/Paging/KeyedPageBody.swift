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
            self.items = keyPath(items)
            self.totalCount = totalCount.map(keyPath)
            self.totalPages = totalPages.map(keyPath)
            self.nextCursor = nextCursor.map(keyPath)
            self.hasMore = hasMore.map(keyPath)
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

/// The keys of a dotted path (`"meta.next_cursor"`); outside the generic page body, so that mapping
/// over it captures no item type.
private func keyPath(_ dotted: String) -> [AnyKey] {
    let components = dotted.split(separator: ".").map { AnyKey(String($0)) }
    return components.isEmpty ? [AnyKey(dotted)] : components
}
