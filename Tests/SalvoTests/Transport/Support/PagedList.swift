import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// The built-in strategies, each aimed at its route of the fake or loopback list server
/// (`/list/<key>/pages|offset|cursor|link`) with pages of 10.
enum PagedList: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pageNumber
    case offset
    case cursorInBody
    case cursorInHeader
    case linkHeader

    var testDescription: String { rawValue }

    var route: String {
        switch self {
        case .pageNumber: "pages"
        case .offset: "offset"
        case .cursorInBody, .cursorInHeader: "cursor"
        case .linkHeader: "link"
        }
    }

    var strategy: PagingStrategy {
        switch self {
        case .pageNumber: .pageNumber(pageSize: 10)
        case .offset: .offset(limit: 10)
        case .cursorInBody: .cursor(from: .body)
        case .cursorInHeader: .cursor(from: .header("x-next-cursor"))
        case .linkHeader: .linkHeader()
        }
    }

    var decoder: PageDecoder<ListItem> {
        self == .linkHeader ? .array() : .object()
    }

    /// The list's endpoint; `query` adds server parameters such as `total` or `fail_page`.
    func endpoint(key: String, query: [URLQueryItem] = []) -> Endpoint {
        var base: [URLQueryItem] = []
        switch self {
        case .cursorInBody, .cursorInHeader: base = [URLQueryItem(name: "limit", value: "10")]
        case .linkHeader: base = [URLQueryItem(name: "per_page", value: "10")]
        default: break
        }
        return Endpoint.get("/list/\(key)/\(route)").adding(query: base + query)
    }

    /// The URL path of the list on the wire, for server-side request counts.
    func path(key: String) -> String { "/list/\(key)/\(route)" }

    func pager(server: ServerConfig, firing: FiringFunction, key: String = "k", query: [URLQueryItem] = []) -> Pager<ListItem> {
        let call = NetCall(server: server, endpoint: endpoint(key: key, query: query), firingFunction: firing)
        return Pager(call: call, strategy: strategy, decoder: decoder, id: \ListItem.id)
    }
}

extension ServerConfig {
    /// A server the fake list session answers for; nothing is sent anywhere.
    static let fakeLists = ServerConfig(scheme: "http", host: "lists.test", port: 8080)
}

extension Pager {
    /// Loads pages until the list ends or a load fails, at most `limit` times.
    func loadPagesUntilEndOrError(limit: Int = 50) async {
        for _ in 0..<limit {
            await loadNextPage()
            if !self.hasMore || error != nil { return }
        }
    }
}

/// Polls `condition` every 10 ms until it holds, failing after `seconds`; for events with no callback.
func waitUntil(_ seconds: Double = 10, _ condition: @escaping @Sendable () async throws -> Bool) async throws {
    try await withTimeout(seconds) {
        while try await !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
    }
}

extension Pager {
    /// How many callers wait for the load in flight.
    var waiterCount: Int { loader.read { _, load in load?.waiters.count ?? 0 } }
}
