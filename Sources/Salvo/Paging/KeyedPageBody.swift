import Foundation

/// A JSON object body whose items and metadata live under keys chosen at run time.
struct KeyedPageBody<Item: Decodable & Sendable>: DecodableWithConfiguration {
    /// Where each part of the page is; dotted paths reach into nested objects.
    struct Keys: Sendable {
        var items: String
        var totalCount: String?
        var totalPages: String?
        var nextCursor: String?
        var hasMore: String?
    }

    let page: Page<Item>

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

    /// The container holding the last component of `path`, and that component as a key.
    private static func locate(
        _ path: String,
        in root: KeyedDecodingContainer<AnyKey>
    ) throws -> (KeyedDecodingContainer<AnyKey>, AnyKey) {
        var components = path.split(separator: ".").map { AnyKey(String($0)) }
        let last = components.popLast() ?? AnyKey(path)
        var container = root
        for component in components {
            container = try container.nestedContainer(keyedBy: AnyKey.self, forKey: component)
        }
        return (container, last)
    }

    /// The value at `path`, or `nil` when it is absent, `null` or not a `T`.
    private static func optional<T: Decodable>(_ type: T.Type, at path: String?, in root: KeyedDecodingContainer<AnyKey>) -> T? {
        guard let path, let located = try? locate(path, in: root) else { return nil }
        return (try? located.0.decodeIfPresent(type, forKey: located.1)) ?? nil
    }
}

/// A coding key made from any string.
private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        stringValue = string
    }

    init(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        nil
    }
}
