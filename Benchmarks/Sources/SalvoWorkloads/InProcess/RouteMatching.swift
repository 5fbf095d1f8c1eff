import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTesting

/// Benchmark 6: finding the route that answers a request in a table of 1,000 routes, next to the
/// same lookup in a table of 10 (how matching scales with the table).
///
/// The tables look like an app's: `/resource<n>` collections, `/resource<n>/:id` items and a
/// `POST` per collection, under `/v1`, plus a `/**` catch-all; requests cycle over item paths.
public struct RouteMatching: Sendable {
    private let large: MockRoutes
    private let small: MockRoutes
    private let largeRequests: [URLRequest]
    private let smallRequests: [URLRequest]

    /// Tables of `routeCount` and 10 routes.
    public init(routeCount: Int = 1_000) {
        large = Self.table(routeCount)
        small = Self.table(10)
        largeRequests = Self.requests(routeCount)
        smallRequests = Self.requests(10)
    }

    private static func table(_ count: Int) -> MockRoutes {
        var routes = MockRoutes(under: "/v1")
        // Counted here: the table's routes are not public.
        var added = 0
        for index in 0..<(count - 1) / 3 {
            routes.add(.get("/resource\(index)", .status(200)))
            routes.add(.get("/resource\(index)/:id", .status(200)))
            routes.add(.post("/resource\(index)", .status(201)))
            added += 3
        }
        while added < count - 1 {
            routes.add(.delete("/other\(added)/:id", .status(204)))
            added += 1
        }
        routes.add(.get("/**", .status(404)))
        return routes
    }

    private static func requests(_ count: Int) -> [URLRequest] {
        (0..<64).map { index in
            URLRequest(url: URL(string: "https://api.example.com/v1/resource\((index * 7) % max(1, (count - 1) / 3))/\(index)") ?? URL(fileURLWithPath: "/"))
        }
    }

    /// Matches the `index`-th request (cycling) against the 1,000-route table.
    public func matchLarge(_ index: Int) {
        sink(large.response(for: largeRequests[index & 63]))
    }

    /// Matches the `index`-th request (cycling) against the 10-route table.
    public func matchSmall(_ index: Int) {
        sink(small.response(for: smallRequests[index & 63]))
    }

    /// Fails unless every request is answered by an item route, not the catch-all.
    public func checkMatches() throws {
        for (routes, requests) in [(large, largeRequests), (small, smallRequests)] {
            let log = MockRouteLog()
            let logged = routes.logging(into: log)
            for request in requests { sink(logged.response(for: request)) }
            let answered = log.entries.compactMap(\.route)
            guard answered.count == requests.count, answered.allSatisfy({ $0.hasPrefix("GET /resource") && $0.hasSuffix("/:id") }) else {
                throw WorkloadError("route matching answered with the wrong routes: \(Set(answered))")
            }
        }
    }
}
