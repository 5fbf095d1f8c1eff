import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A table of mock routes that answers a whole app offline.
///
/// Swap one firing function at the composition root and every call is answered here. A request
/// that no route matches fails with ``NetworkError/invalidRequest(_:)`` (part `.url`) naming its
/// method and URL: it never hangs and never reaches the network.
///
/// When several routes match, the most specific wins: segments are compared left to right
/// (literal, then `:param`, then `*`, then `**`), then more query constraints win; among equally
/// specific routes the one added **last** wins, so a test can override one route of a shared table.
///
/// ```swift
/// let routes = MockRoutes(under: "/v1", [
///     .get("/users", .json([alice, bob])),
///     .get("/users/:id") { request in .json(User(id: request.parameters["id"] ?? "")) },
///     .post("/users", .status(201)),
/// ])
/// call.firingFunction = .mock(routes)
/// ```
public struct MockRoutes: Sendable {
    /// The routes, in the order they were added.
    public private(set) var routes: [MockRoute]
    /// A path prefix every pattern lives under, such as the server's API route `"/v1"`.
    public let basePath: String

    /// A table of `routes` whose patterns live under `basePath`.
    public init(under basePath: String = "", _ routes: [MockRoute] = []) {
        self.basePath = basePath
        self.routes = routes
    }

    /// Adds `route`; it wins over equally specific routes added before it.
    public mutating func add(_ route: MockRoute) {
        routes.append(route)
    }

    /// This table with `route` added.
    public func adding(_ route: MockRoute) -> MockRoutes {
        var copy = self
        copy.add(route)
        return copy
    }

    /// The answer for `request`: the best matching route's, or a failure naming the request.
    public func response(for request: URLRequest) -> MockResponse {
        switch match(request) {
        case .success(let (route, mockRequest)): return route.answer(mockRequest)
        case .failure(let noRoute): return MockResponse(.problem(reason: noRoute.message, part: .url))
        }
    }

    /// The best route for `request` and the request with its captured parameters, or why none fits.
    func match(_ request: URLRequest) -> Result<(MockRoute, MockRequest), NoRoute> {
        let method = HTTPMethod(request.httpMethod ?? "GET")
        guard let url = request.url,
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return .failure(NoRoute(message: "no mock route matches \(method) with no URL"))
        }
        let path = MockPathSegment.split(components.percentEncodedPath).map { $0.removingPercentEncoding ?? $0 }
        let base = MockPathSegment.split(basePath)
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        var best: (route: MockRoute, parameters: [String: String])?
        if path.starts(with: base) {
            let relative = Array(path.dropFirst(base.count))
            for route in routes where route.method == method {
                guard let parameters = route.match(path: relative, query: query) else { continue }
                if let current = best, Self.isMoreSpecific(current.route, than: route) { continue }
                best = (route, parameters)
            }
        }
        guard let best else {
            return .failure(NoRoute(message: noMatchMessage(method: method, url: url)))
        }
        return .success((best.route, MockRequest(request, parameters: best.parameters)))
    }

    /// Why no route answered a request.
    struct NoRoute: Error {
        let message: String
    }

    /// Whether `lhs` beats `rhs`; on a tie the later route (`rhs` while scanning in order) wins.
    private static func isMoreSpecific(_ lhs: MockRoute, than rhs: MockRoute) -> Bool {
        let left = lhs.specificity, right = rhs.specificity
        for (l, r) in zip(left, right) where l != r { return l > r }
        if left.count != right.count {
            // Both matched the same path, so the longer one ends in a `**` that matched nothing.
            return left.count < right.count
        }
        return lhs.query.count > rhs.query.count
    }

    private func noMatchMessage(method: HTTPMethod, url: URL) -> String {
        let known = routes.prefix(12).map(\.summary).joined(separator: ", ")
        let more = routes.count > 12 ? ", …" : ""
        let base = basePath.isEmpty ? "" : " under \"\(basePath)\""
        return "no mock route matches \(method) \(url.absoluteString); routes\(base): "
            + (routes.isEmpty ? "none" : known + more)
    }
}
