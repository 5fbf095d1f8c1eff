import Foundation
@_spi(Transport) @testable import Salvo

/// Builds the body and headers of one list page, the way `loopback_server.py` does.
struct ListResponder {
    let options: FakeListServer.Options
    let url: URL

    func respond() -> (Data, [String: String]) {
        let query = Self.query(of: url)
        let total = Int(query["total"] ?? "") ?? options.total
        switch url.lastPathComponent {
        case "pages":
            let first = Int(query["first"] ?? "1") ?? 1
            let page = Int(query["page"] ?? "") ?? first
            let perPage = Int(query["per_page"] ?? "10") ?? 10
            let totalPages = (total + perPage - 1) / perPage
            return (json(["items": items((page - first) * perPage, perPage, total), "page": page,
                          "per_page": perPage, "total": total, "total_pages": totalPages]), [:])
        case "offset":
            let offset = Int(query["offset"] ?? "0") ?? 0
            let limit = Int(query["limit"] ?? "10") ?? 10
            return (json(["items": items(offset, limit, total), "offset": offset, "limit": limit, "total": total]), [:])
        case "cursor":
            let offset = query["cursor"].flatMap(Self.offset(fromCursor:)) ?? 0
            let limit = Int(query["limit"] ?? "10") ?? 10
            let next = offset + limit < total ? Self.cursor(forOffset: offset + limit) : nil
            return (json(["items": items(offset, limit, total), "next_cursor": next.map { $0 as Any } ?? NSNull()]),
                    next.map { ["X-Next-Cursor": $0] } ?? [:])
        default:
            let page = Int(query["page"] ?? "1") ?? 1
            let perPage = Int(query["per_page"] ?? "10") ?? 10
            return (json(items((page - 1) * perPage, perPage, total)), ["Link": links(page, perPage, total)])
        }
    }

    private func links(_ page: Int, _ perPage: Int, _ total: Int) -> String {
        let last = max(1, (total + perPage - 1) / perPage)
        func target(_ page: Int, host: String? = nil) -> String {
            let path = url.path + "?page=\(page)&per_page=\(perPage)"
            if let host { return "http://\(host)\(path)" }
            let origin = "\(url.scheme ?? "http")://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
            return options.relativeLinks ? path : origin + path
        }
        var links: [String] = []
        if page < last { links.append("<\(target(page + 1, host: options.nextHost))>; rel=\"next\"") }
        if page > 1 { links.append("<\(target(min(page - 1, last)))>; rel=\"prev\"") }
        links.append("<\(target(1))>; rel=\"first\"")
        links.append("<\(target(last))>; rel=\"last\"")
        return links.joined(separator: ", ")
    }

    private func items(_ start: Int, _ count: Int, _ total: Int) -> [[String: Any]] {
        let end = min(start + count, total)
        guard start < end else { return [] }
        return (start + 1...end).map { ["id": $0, "name": "Item \($0)"] }
    }

    private func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    static func query(of url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }

    static func cursor(forOffset offset: Int) -> String {
        Data("salvo:\(offset)".utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    static func offset(fromCursor cursor: String) -> Int? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              text.hasPrefix("salvo:") else { return nil }
        return Int(text.dropFirst("salvo:".count))
    }
}
