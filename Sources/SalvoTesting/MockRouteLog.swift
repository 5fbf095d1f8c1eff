import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a route table answered: each request in order with the route that answered it (or none),
/// so a test can check how often each route was hit, with which requests, which routes were
/// never used and which requests were unexpected.
///
/// ```swift
/// let log = MockRouteLog()
/// call.firingFunction = .mock(routes.logging(into: log))
/// // … run the code under test …
/// #expect(log.hits(of: "GET /cart").count == 2)
/// #expect(log.unusedRoutes.isEmpty)
/// #expect(log.problems(strict: true).isEmpty)   // or, with SalvoTesting, log.verify(strict: true)
/// ```
///
/// A log is a reference: give each test its own. Safe to use from any thread.
public final class MockRouteLog: Sendable {
    /// One request a logged table was asked to answer.
    public struct Entry: Sendable {
        /// The request as the session received it.
        public let request: URLRequest
        /// The position in the table of the route that answered, or nil when none matched.
        public let routeIndex: Int?
        /// The answering route's method and pattern (`"GET /cart"`, plus any query constraints and
        /// matchers in brackets), or nil when none matched.
        public let route: String?
    }

    private let state = Locked<(routes: [String], entries: [Entry])>(([], []))

    /// An empty log.
    public init() {}

    /// Every request, in the order it arrived.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// The summaries of the logged table's routes, in table order.
    public var routes: [String] { state.withLock { $0.routes } }

    /// The requests the route at `index` answered, in order.
    public func hits(ofRouteAt index: Int) -> [URLRequest] {
        entries.filter { $0.routeIndex == index }.map(\.request)
    }

    /// The requests answered by routes whose summary is `route` (`"GET /cart"`, as
    /// ``Entry/route`` spells it), in order.
    public func hits(of route: String) -> [URLRequest] {
        entries.filter { $0.route == route }.map(\.request)
    }

    /// How many requests each route answered, by position in the table; unused routes count 0.
    public var hitCounts: [Int] {
        state.withLock { state in
            var counts = Array(repeating: 0, count: state.routes.count)
            for case let index? in state.entries.map(\.routeIndex) where counts.indices.contains(index) { counts[index] += 1 }
            return counts
        }
    }

    /// The summaries of the routes that never answered, in table order.
    public var unusedRoutes: [String] {
        let counts = hitCounts, routes = routes
        return routes.indices.filter { counts[$0] == 0 }.map { routes[$0] }
    }

    /// The requests no route matched, in order.
    public var unmatchedRequests: [URLRequest] {
        entries.filter { $0.routeIndex == nil }.map(\.request)
    }

    /// What a test should fail for, one sentence each: every request no route matched and, when
    /// `strict`, every route that was never used. Empty when all is well.
    public func problems(strict: Bool = false) -> [String] {
        var problems = unmatchedRequests.map { request in
            "Unexpected request \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "(no URL)"): no mock route matched it."
        }
        if strict {
            problems += unusedRoutes.map { "Route \($0) was never used; remove it or fire the call it stands for." }
        }
        return problems
    }

    /// Forgets every entry; the routes stay.
    public func reset() {
        state.withLock { $0.entries = [] }
    }

    /// The observer a logged table reports to.
    var observer: MockRoutes.Observer {
        MockRoutes.Observer(
            routesChanged: { [self] summaries in state.withLock { $0.routes = summaries } },
            routeAdded: { [self] summary in state.withLock { $0.routes.append(summary) } },
            answered: { [self] request, index, route in
                state.withLock { $0.entries.append(Entry(request: request, routeIndex: index, route: route)) }
            }
        )
    }
}

extension MockRoutes {
    /// This table, logging every request it answers (and every one it cannot) into `log`.
    public func logging(into log: MockRouteLog) -> MockRoutes {
        observed(by: log.observer)
    }
}
