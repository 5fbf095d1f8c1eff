import Foundation

extension Pager {
    /// Says once, through the sink of each ``LoggingAction`` of the pager's call (the server's
    /// and the call's own), that `page`, the first page of a list that ended after it, lacks what
    /// the strategy reads to find the next page, naming it and what the page has.
    ///
    /// Such a list ends after one page: right for a one-page list, silent data loss for a longer
    /// one whose server names the key otherwise. A key that is present and `null` or empty is
    /// the server saying the list ends, and is not reported; neither is an empty first page, nor
    /// one whose ``Page/hasMore`` is `false`.
    func logMissingNextPageKey(of page: LoadedPage) {
        guard let key = strategy.nextPageKey, page.itemCount > 0, page.hasMore != false,
              let message = Self.missingKeyMessage(key, cursorKey: decoder.nextCursorKey, page: page) else { return }
        let sinks = (call.server.actions + call.actions).compactMap { ($0 as? LoggingAction)?.sink }
        guard !sinks.isEmpty, hasLoggedMissingKey.withLock({ isLogged in
            defer { isLogged = true }
            return !isLogged
        }) else { return }
        for sink in sinks { sink(message) }
    }

    /// What the first page lacks and what it has instead; `nil` when it has what `key` names.
    private static func missingKeyMessage(_ key: PagingStrategy.NextPageKey, cursorKey: String?, page: LoadedPage) -> String? {
        let ends = "so the list ends after its \(page.itemCount) items"
        let headerNames = listed(page.response.headers.map(\.name))
        switch key {
        case .cursorInBody:
            guard page.nextCursor == nil else { return nil }
            guard let cursorKey else {
                return "Pager: the first page has no next cursor and its page decoder names no cursor key, \(ends); "
                    + "read it with PageDecoder.object(nextCursorKey:) or set Page.nextCursor in your decoder. "
                    + "The page has \(bodyKeys(of: page.response.data, at: []))."
            }
            let path = cursorKey.split(separator: ".").map(String.init)
            guard !hasKey(path, in: page.response.data) else { return nil }
            return "Pager: the first page has no key \"\(cursorKey)\", where the page decoder reads the next cursor, \(ends); "
                + "name the key as the server sends it: PageDecoder.object(nextCursorKey:). "
                + "The page has \(bodyKeys(of: page.response.data, at: path.dropLast()))."
        case .header(let name):
            guard page.response.headers[name] == nil else { return nil }
            return "Pager: the first page has no \(name) header, where the cursor strategy reads the next cursor, \(ends). "
                + "The page has the headers \(headerNames)."
        case .link(let relation):
            guard page.response.headers["Link"] != nil else {
                return "Pager: the first page has no Link header, where the strategy reads the rel=\"\(relation)\" link, \(ends). "
                    + "The page has the headers \(headerNames)."
            }
            let relations = page.response.links.links.flatMap(\.relations)
            guard !relations.contains(relation.lowercased()) else { return nil }
            return "Pager: the first page's Link header has no rel=\"\(relation)\" link, \(ends). "
                + "It has the relations \(listed(relations))."
        }
    }

    /// Whether the JSON body has `path` (its value may be `null`).
    private static func hasKey(_ path: [String], in body: Data) -> Bool {
        guard let last = path.last, let object = jsonObject(at: path.dropLast(), in: body) as? [String: Any] else { return false }
        return object[last] != nil
    }

    /// The keys of the JSON object at `path` of the body, as the server sent them.
    private static func bodyKeys(of body: Data, at path: ArraySlice<String>) -> String {
        switch jsonObject(at: path, in: body) {
        case let object as [String: Any]:
            let keys = listed(object.keys.sorted())
            return path.isEmpty ? "the keys \(keys)" : "under \"\(path.joined(separator: "."))\" the keys \(keys)"
        case is [Any]:
            return path.isEmpty ? "a JSON array as its body" : "a JSON array under \"\(path.joined(separator: "."))\""
        default:
            return path.isEmpty ? "no JSON object as its body" : "no JSON object under \"\(path.joined(separator: "."))\""
        }
    }

    private static func jsonObject(at path: ArraySlice<String>, in body: Data) -> Any? {
        var value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        for key in path { value = (value as? [String: Any])?[key] }
        return value
    }

    private static func listed(_ names: [String]) -> String {
        names.isEmpty ? "(none)" : names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
