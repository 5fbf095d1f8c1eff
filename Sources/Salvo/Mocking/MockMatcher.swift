import Foundation

/// A condition on a request beyond its method, path and query items: the body, a header, a
/// scenario's state. A route carrying matchers answers only requests that meet all of them.
///
/// ```swift
/// MockRoute.get("/reports", .json(reports)).matching(MockMatcher("tenant a") { request in
///     request.header("X-Tenant") == "a" ? nil : "its X-Tenant is \(request.header("X-Tenant") ?? "missing")"
/// })
/// ```
///
/// SalvoTesting adds ready-made matchers for tests: `.header(_:_:)`, `.query(containing:)`,
/// `.jsonBody(_:)`, `.jsonBody(containing:)`, `.formBody(_:)`, `.body(_:)` and the multipart ones.
///
/// A request no route answers fails with a message naming the closest routes and, for each, the
/// first matcher it failed and why.
public struct MockMatcher: Sendable, CustomStringConvertible {
    /// What the matcher requires, e.g. `header Accept: application/json`.
    public let description: String
    private let check: @Sendable (MockRequest) -> String?

    /// A matcher described by `description` whose `check` returns nil when a request meets it,
    /// or a short reason when it does not (`"its X-Tenant is \"b\""`).
    public init(_ description: String, check: @escaping @Sendable (MockRequest) -> String?) {
        self.description = description
        self.check = check
    }

    /// Why `request` does not meet this matcher, or nil when it does.
    func mismatch(for request: MockRequest) -> String? {
        check(request)
    }
}
