import Foundation

extension Endpoint {
    /// This endpoint with `items` appended to its query, in order: for a query built at run time,
    /// and for a name without a value (`URLQueryItem(name: "flag", value: nil)` sends `?flag`).
    ///
    /// ```swift
    /// let tags = ["swift", "c++"].map { URLQueryItem(name: "tag", value: $0) }
    /// let search = Endpoint.get("/search").adding(query: tags + [URLQueryItem(name: "exact", value: nil)])
    /// // GET /search?tag=swift&tag=c%2B%2B&exact
    /// ```
    ///
    /// Names and values are sent as written: Salvo percent-encodes them when it builds the URL.
    public func adding(query items: [URLQueryItem]) -> Endpoint {
        var copy = self
        copy.query += items
        return copy
    }

    /// This endpoint with `pairs` appended to its query, in order: `.adding(query: ["tag": "a", "tag": "b"])`.
    public func adding(query pairs: KeyValuePairs<String, String>) -> Endpoint {
        adding(query: Self.queryItems(pairs))
    }

    /// This endpoint with the query item `name` set to `value`, replacing every item of that name.
    public func setting(query name: String, to value: String?) -> Endpoint {
        var copy = self
        copy.query.removeAll { $0.name == name }
        if let value { copy.query.append(URLQueryItem(name: name, value: value)) }
        return copy
    }

    /// This endpoint with the header `name` set to `value`.
    public func header(_ name: String, _ value: String) -> Endpoint {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// This endpoint failing with a timeout after `seconds`.
    public func timeout(_ seconds: TimeInterval) -> Endpoint {
        var copy = self
        copy.timeout = seconds
        return copy
    }

    /// This endpoint under another base path than the server's, e.g. `"api/v2"`.
    public func onBasePath(_ path: EndpointPath) -> Endpoint {
        var copy = self
        copy.basePath = path
        return copy
    }

    /// This endpoint marked as needing credentials, or with `false` as needing none whatever its
    /// server says (a sign-in endpoint on a server whose endpoints all need them); see ``AuthTokenAction``.
    public func requiringAuthentication(_ isRequired: Bool = true) -> Endpoint {
        var copy = self
        copy.requiresAuthentication = isRequired
        return copy
    }
}
