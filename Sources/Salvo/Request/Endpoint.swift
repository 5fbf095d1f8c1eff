import Foundation

/// What is specific to one endpoint, independent of the server it lives on.
///
/// ```swift
/// let listUsers = Endpoint.get("/users", query: ["page": "2"])
/// let createUser = Endpoint.post("/users", body: .json(newUser))
/// let avatar = Endpoint.get("/users/\(id)/avatar").timeout(5)
/// ```
public struct Endpoint: Sendable, Hashable {
    /// The request method.
    public var method: HTTPMethod
    /// The path below the server's base path; interpolated values are encoded as single segments.
    public var path: EndpointPath
    /// Query items in order; a name may repeat. Sent after the server's default query items.
    public var query: [URLQueryItem]
    /// Header fields; they replace server default headers of the same name (any case).
    public var headers: HTTPHeaders
    /// The request body.
    public var body: RequestBody
    /// Seconds to wait for the server before failing with a timeout; `nil` uses the session's default.
    public var timeout: TimeInterval?
    /// A base path that replaces the server's for this endpoint (a v2 endpoint beside v1 ones); `nil` keeps the server's.
    public var basePath: EndpointPath?
    /// Whether the endpoint needs credentials; `nil`, the default, leaves it to the server
    /// (``ServerConfig/requiresAuthentication``). The auth-token action adds credentials only to
    /// calls that need them (``NetCall/requiresAuthentication``).
    public var requiresAuthentication: Bool?

    /// An endpoint with every part spelled out; the factories (`.get`, `.post`, …) read better.
    public init(
        method: HTTPMethod = .get,
        path: EndpointPath = "",
        query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: RequestBody = .none,
        timeout: TimeInterval? = nil,
        basePath: EndpointPath? = nil,
        requiresAuthentication: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.basePath = basePath
        self.requiresAuthentication = requiresAuthentication
    }
}
