import Foundation

/// One entry of a ``MockRoutes`` table: a method, a path pattern, optional query constraints, and
/// the answer.
///
/// Patterns are paths whose segments are literal text, `:name` (one segment, captured into
/// ``MockRequest/parameters``), `*` (any one segment) or `**` (any number of segments, also none).
///
/// ```swift
/// MockRoute(.get, "/users/:id") { request in .json(User(id: request.parameters["id"] ?? "")) }
/// MockRoute.get("/users", query: ["page": "2"], .json(pageTwo))
/// MockRoute.delete("/users/*", .status(204))
/// ```
public struct MockRoute: Sendable {
    /// The method the route answers.
    let method: HTTPMethod
    /// The path pattern, as written.
    let pattern: String
    /// Query items the request must carry; a value of `"*"` accepts any value.
    let query: [String: String]
    /// Conditions on the body, headers or a scenario that a request must also meet; see ``matching(_:)``.
    private(set) var matchers: [MockMatcher] = []
    let segments: [MockPathSegment]
    /// How specific the route is: per segment literal > `:param` > `*` > `**`, compared left to
    /// right; stored, as matching compares it for every candidate.
    let specificity: [Int]
    private(set) var answer: @Sendable (MockRequest) -> MockResponse

    /// A route answering `method` requests whose path matches `pattern` and whose query has `query`.
    public init(
        _ method: HTTPMethod,
        _ pattern: String,
        query: [String: String] = [:],
        answer: @escaping @Sendable (MockRequest) -> MockResponse
    ) {
        self.method = method
        self.pattern = pattern
        self.query = query
        self.segments = MockPathSegment.parse(pattern)
        self.specificity = segments.map(\.specificity)
        self.answer = answer
    }

    /// A `GET` route giving `response`.
    public static func get(_ pattern: String, query: [String: String] = [:], _ response: MockResponse) -> MockRoute {
        MockRoute(.get, pattern, query: query) { _ in response }
    }

    /// A `POST` route giving `response`.
    public static func post(_ pattern: String, query: [String: String] = [:], _ response: MockResponse) -> MockRoute {
        MockRoute(.post, pattern, query: query) { _ in response }
    }

    /// A `PUT` route giving `response`.
    public static func put(_ pattern: String, query: [String: String] = [:], _ response: MockResponse) -> MockRoute {
        MockRoute(.put, pattern, query: query) { _ in response }
    }

    /// A `PATCH` route giving `response`.
    public static func patch(_ pattern: String, query: [String: String] = [:], _ response: MockResponse) -> MockRoute {
        MockRoute(.patch, pattern, query: query) { _ in response }
    }

    /// A `DELETE` route giving `response`.
    public static func delete(_ pattern: String, query: [String: String] = [:], _ response: MockResponse) -> MockRoute {
        MockRoute(.delete, pattern, query: query) { _ in response }
    }

    /// `"GET /users/:id"`, plus the query constraints and matchers if any:
    /// `"POST /login [JSON body containing {\"user\":\"ada\"}]"`.
    package var summary: String {
        let constraints = query.keys.sorted().map { "\($0)=\(query[$0] ?? "")" }.joined(separator: "&")
        let conditions = matchers.isEmpty ? "" : " [" + matchers.map(\.description).joined(separator: "; ") + "]"
        return "\(method) \(pattern)" + (constraints.isEmpty ? "" : "?" + constraints) + conditions
    }

    /// This route answering only requests that also meet every one of `matchers`.
    ///
    /// A route with more conditions (query items plus matchers) wins over an equally specific
    /// path with fewer.
    public func matching(_ matchers: MockMatcher...) -> MockRoute {
        var copy = self
        copy.matchers += matchers
        return copy
    }

    /// This route, running `effect` after each answer it gives (a scenario moving on, say).
    package func after(_ effect: @escaping @Sendable (MockRequest) -> Void) -> MockRoute {
        var copy = self
        let answer = self.answer
        copy.answer = { request in
            defer { effect(request) }
            return answer(request)
        }
        return copy
    }

    /// The captured parameters when `path` (decoded segments) and `items` satisfy this route.
    func match(path: ArraySlice<String>, query items: [String: String]) -> [String: String]? {
        for (name, value) in query {
            guard let actual = items[name], value == "*" || actual == value else { return nil }
        }
        return MockPathSegment.match(segments[...], path)
    }

    /// How many conditions beyond the path the route sets: query items and matchers.
    var conditionCount: Int { query.count + matchers.count }
}
