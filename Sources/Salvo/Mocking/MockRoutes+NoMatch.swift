import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MockRoutes {
    /// How many of the closest routes an unmatched request's message names.
    static let closestRouteCount = 3

    /// The message for a request no route matched: the request, then the closest routes, each
    /// with the first reason it did not match, then what to do.
    ///
    /// *No mock route matches POST https://h.example/v1/login. Closest routes: POST /login
    /// [JSON body containing {"user":"ada"}] — $.user is "bob", not "ada"; GET /login — it
    /// answers GET, not POST. Add a route for this request or change one of these.*
    func noMatchMessage(method: HTTPMethod, url: URL, request: MockRequest) -> String {
        let base = basePath.isEmpty ? "" : " under \"\(basePath)\""
        let opening = "No mock route matches \(method) \(url.absoluteString)"
        guard !routes.isEmpty else {
            return opening + "; routes\(base): none. Add a route for this request."
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = MockPathSegment.split(components?.percentEncodedPath ?? "").map { $0.removingPercentEncoding ?? $0 }
        let query = components.map(Self.queryItems(of:)) ?? [:]
        let misses = routes.enumerated().map { position, route in
            miss(route, at: position, method: method, path: path, query: query, request: request)
        }
        let closest = misses.sorted { $0.score != $1.score ? $0.score > $1.score : $0.position > $1.position }
            .prefix(Self.closestRouteCount)
            .map { "\($0.summary) — \($0.reason)" }
        return opening + ". Closest routes\(base): " + closest.joined(separator: "; ")
            + (routes.count > Self.closestRouteCount ? " (of \(routes.count))" : "")
            + ". Add a route for this request or change one of these."
    }

    /// How close `route` came to matching, and the first reason it did not.
    private struct Miss {
        let position: Int
        let summary: String
        let score: Int
        let reason: String
    }

    private func miss(_ route: MockRoute, at position: Int, method: HTTPMethod, path: [String], query: [String: String], request: MockRequest) -> Miss {
        var score = 0
        var reasons: [String] = []
        let isSameMethod = route.method == method || (method == .head && route.method == .get)
        if isSameMethod { score += 4 } else { reasons.append("it answers \(route.method), not \(method)") }
        let relative: [String]? = path.starts(with: MockPathSegment.split(basePath)) ? Array(path.dropFirst(MockPathSegment.split(basePath).count)) : nil
        let parameters = relative.flatMap { MockPathSegment.match(route.segments[...], $0[...]) }
        if parameters != nil {
            score += 8
        } else {
            let shared = zip(route.segments, relative ?? []).prefix { segment, text in
                if case .literal(let literal) = segment { return literal == text }
                return true
            }.count
            score += min(shared, 3)
            let shown = "/" + path.joined(separator: "/")
            reasons.append(relative == nil
                ? "the path \(shown) is not under \"\(basePath)\""
                : "the path \(shown) does not fit the pattern \(route.pattern)")
        }
        for name in route.query.keys.sorted() {
            let wanted = route.query[name] ?? ""
            guard let actual = query[name] else {
                reasons.append("its query has no \(name)")
                break
            }
            if wanted != "*", actual != wanted {
                reasons.append("its query has \(name)=\(actual), not \(wanted)")
                break
            }
        }
        if reasons.isEmpty { score += 2 }
        if parameters != nil {
            let candidate = request.with(parameters: parameters ?? [:])
            if let failed = route.matchers.lazy.compactMap({ matcher in matcher.mismatch(for: candidate).map { "\(matcher.description): \($0)" } }).first {
                reasons.append(failed)
            }
        }
        return Miss(position: position, summary: route.summary, score: score, reason: reasons.first ?? "it matches, but a more specific route won")
    }
}
