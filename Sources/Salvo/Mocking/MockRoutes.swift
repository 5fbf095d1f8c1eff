import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A table of mock routes that answers a whole app offline.
///
/// Swap one firing function at the composition root and every call is answered here. A request
/// that no route matches fails with ``NetworkError/incompleteSetup(_:)`` (part `.route`) naming its
/// method and URL and the closest routes with why each missed: it never hangs and never reaches
/// the network.
///
/// When several routes match, the most specific wins: segments are compared left to right
/// (literal, then `:param`, then `*`, then `**`), then more conditions (query items and
/// ``MockMatcher``s) win; among equally specific routes the one added **last** wins, so a test
/// can override one route of a shared table.
///
/// ```swift
/// let routes = MockRoutes(under: "/v1", [
///     .get("/users", .json([alice, bob])),
///     MockRoute(.get, "/users/:id") { request in .json(User(id: request.parameters["id"] ?? "")) },
///     .post("/users", .status(201)),
/// ])
/// call.firingFunction = .mock(routes)
/// ```
public struct MockRoutes: Sendable {
    /// The routes, in the order they were added.
    private(set) var routes: [MockRoute]
    /// A path prefix every pattern lives under, such as the server's ``ServerConfig/basePath`` `"/v1"`.
    let basePath: String
    /// Told of the routes and of every answer, if anyone is: SalvoTesting's `MockRouteLog`.
    private var observer: Observer?
    private var index = MockRouteIndex()
    private let baseSegments: [String]

    /// A table of `routes` whose patterns live under `basePath`.
    public init(under basePath: String = "", _ routes: [MockRoute] = []) {
        self.basePath = basePath
        self.routes = []
        baseSegments = MockPathSegment.split(basePath)
        for route in routes { add(route) }
    }

    /// Adds `route`; it wins over equally specific routes added before it.
    public mutating func add(_ route: MockRoute) {
        index.add(route, at: routes.count)
        routes.append(route)
        observer?.routeAdded(route.summary)
    }

    /// This table with `route` added.
    func adding(_ route: MockRoute) -> MockRoutes {
        var copy = self
        copy.add(route)
        return copy
    }

    /// Who a table tells what it answered: SalvoTesting's `MockRouteLog` is one.
    package struct Observer: Sendable {
        /// Told the summaries of the table's routes, in table order, when it starts observing.
        let routesChanged: @Sendable ([String]) -> Void
        /// Told the summary of each route added after that.
        let routeAdded: @Sendable (String) -> Void
        /// Told each request, with the position and summary of the route that answered it (nil when none did).
        let answered: @Sendable (URLRequest, Int?, String?) -> Void

        package init(
            routesChanged: @escaping @Sendable ([String]) -> Void,
            routeAdded: @escaping @Sendable (String) -> Void,
            answered: @escaping @Sendable (URLRequest, Int?, String?) -> Void
        ) {
            self.routesChanged = routesChanged
            self.routeAdded = routeAdded
            self.answered = answered
        }
    }

    /// This table, telling `observer` its routes and every request it answers (or cannot).
    package func observed(by observer: Observer) -> MockRoutes {
        var copy = self
        copy.observer = observer
        observer.routesChanged(routes.map(\.summary))
        return copy
    }

    /// The answer for `request`: the best matching route's, or a failure naming the request and
    /// the closest routes with why each did not match.
    ///
    /// A `HEAD` request no `HEAD` route matches is answered by the `GET` route, as servers do;
    /// mock firing sends no body with it.
    public func response(for request: URLRequest) -> MockResponse {
        response(for: MockRequest(request))
    }

    /// The answer for `request`, whose body mock firing may have read already (one made while it
    /// is sent, ``RequestBody/stream(length:contentType:_:)``), so that routes see its bytes.
    @_spi(Transport) public func response(for request: MockRequest) -> MockResponse {
        switch locate(request) {
        case .success(let found):
            observer?.answered(request.request, found.position, routes[found.position].summary)
            return routes[found.position].answer(found.request)
        case .failure(let noRoute):
            observer?.answered(request.request, nil, nil)
            return MockResponse(.problem(reason: noRoute.message, part: .route))
        }
    }

    /// The best route for `request` and the request with its captured parameters, or why none fits.
    func match(_ request: URLRequest) -> Result<(MockRoute, MockRequest), NoRoute> {
        locate(MockRequest(request)).map { (routes[$0.position], $0.request) }
    }

    /// A matched route's position and the request with its captured parameters.
    struct Found {
        let position: Int
        let request: MockRequest
    }

    /// Why no route answered a request.
    struct NoRoute: Error {
        let message: String
    }

    private func locate(_ request: MockRequest) -> Result<Found, NoRoute> {
        let method = HTTPMethod(request.request.httpMethod ?? "GET")
        guard let url = request.request.url else {
            return .failure(NoRoute(message: "No mock route matches \(method) with no URL; give the call a URL."))
        }
        let path = MockPathSegment.decodedSegments(Self.percentEncodedPath(of: url))
        if path.starts(with: baseSegments) {
            let relative = path[baseSegments.count...]
            if let found = best(method: method, path: relative, url: url, request: request) { return .success(found) }
            if method == .head, let found = best(method: .get, path: relative, url: url, request: request) { return .success(found) }
        }
        return .failure(NoRoute(message: noMatchMessage(method: method, url: url, request: request)))
    }

    private func best(method: HTTPMethod, path: ArraySlice<String>, url: URL, request: MockRequest) -> Found? {
        var best: (position: Int, parameters: [String: String])?
        var query: [String: String]?
        routes.withUnsafeBufferPointer { routes in
            // Through the buffer, so that looking at a candidate does not copy (and retain) the route.
            index.forEachCandidate(method: method, path: path) { position in
                if !routes[position].query.isEmpty, query == nil {
                    query = URLComponents(url: url, resolvingAgainstBaseURL: false).map(Self.queryItems(of:)) ?? [:]
                }
                guard let parameters = routes[position].match(path: path, query: query ?? [:]) else { return }
                if !routes[position].matchers.isEmpty {
                    let candidate = request.with(parameters: parameters)
                    guard routes[position].matchers.allSatisfy({ $0.mismatch(for: candidate) == nil }) else { return }
                }
                if let current = best, Self.beats(routes[current.position], at: current.position, routes[position], at: position) { return }
                best = (position, parameters)
            }
        }
        guard let best else { return nil }
        return Found(position: best.position, request: request.with(parameters: best.parameters))
    }

    /// The path of `url` as sent, still percent-encoded; read from the already parsed URL where
    /// the platform allows, as `URLComponents` would parse it again (about 1 µs).
    static func percentEncodedPath(of url: URL) -> String {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            return url.path(percentEncoded: true)
        }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
    }

    /// The decoded query items; for a repeated name the last value wins.
    static func queryItems(of components: URLComponents) -> [String: String] {
        guard components.percentEncodedQuery != nil else { return [:] }
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }

    /// Whether `lhs` (at `left`) beats `rhs` (at `right`); on a tie the route added later wins.
    private static func beats(_ lhs: MockRoute, at left: Int, _ rhs: MockRoute, at right: Int) -> Bool {
        let leftSpecificity = lhs.specificity, rightSpecificity = rhs.specificity
        for (l, r) in zip(leftSpecificity, rightSpecificity) where l != r { return l > r }
        if leftSpecificity.count != rightSpecificity.count {
            // Both matched the same path, so the longer one ends in a `**` that matched nothing.
            return leftSpecificity.count < rightSpecificity.count
        }
        if lhs.conditionCount != rhs.conditionCount { return lhs.conditionCount > rhs.conditionCount }
        return left > right
    }
}
