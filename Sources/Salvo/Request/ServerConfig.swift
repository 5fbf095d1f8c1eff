import Foundation

/// Where calls go: scheme, host, port, base path, and what every call to that server carries.
///
/// Switching production, staging, `localhost:3000` or API v2 is one value swap; endpoints never change.
///
/// ```swift
/// let production = ServerConfig(host: "api.example.com", basePath: "v1",
///                               defaultHeaders: ["Accept": "application/json"])
/// let local = try ServerConfig(baseURL: "http://localhost:3000/v1")
/// ```
public struct ServerConfig: Sendable {
    /// The URL scheme, `https` by default.
    public var scheme: String
    /// The host name or IP address (an IPv6 address may be given with or without brackets).
    public var host: String
    /// The port, `nil` for the scheme's default.
    public var port: Int?
    /// The path every endpoint lives under, e.g. `"api/v1"`; an endpoint may replace it.
    public var basePath: EndpointPath
    /// Header fields sent with every call; an endpoint's fields of the same name win.
    public var defaultHeaders: HTTPHeaders
    /// Query items sent first on every call.
    public var defaultQuery: [URLQueryItem]
    /// Actions that run around every call to this server, before the call's own actions.
    public var actions: [any NetworkAction]
    /// How typed calls to this server decode bodies and error bodies, unless a call sets its own
    /// (``TypedCall/decoder``).
    public var decoder: JSONDecoder
    /// Whether an endpoint on this server needs credentials unless it says otherwise
    /// (``Endpoint/requiringAuthentication(_:)``); `false` by default. See ``AuthTokenAction``.
    public var requiresAuthentication: Bool
    /// How calls to this server are fired unless a call sets its own (``NetCall/firingFunction``):
    /// `.production` by default. Swap it to fire every call of an API through mocks, replay or a spy.
    ///
    /// ```swift
    /// var server = ServerConfig(host: "api.example.com")
    /// server.firingFunction = .mock(routes)   // every call made with `server` now fires offline
    /// ```
    public var firingFunction: FiringFunction

    /// Whether calls to this server measure each attempt (``AttemptMetrics``): responses,
    /// actions and ``LoggingAction`` then see the metrics. `false` (the default) reads no clock
    /// and keeps nothing.
    public var collectsMetrics = false

    /// A server from its parts.
    public init(
        scheme: String = "https",
        host: String,
        port: Int? = nil,
        basePath: EndpointPath = "",
        defaultHeaders: HTTPHeaders = [:],
        defaultQuery: [URLQueryItem] = [],
        actions: [any NetworkAction] = [],
        decoder: JSONDecoder = JSONDecoder(),
        requiresAuthentication: Bool = false,
        firingFunction: FiringFunction = .production
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.basePath = basePath
        self.defaultHeaders = defaultHeaders
        self.defaultQuery = defaultQuery
        self.actions = actions
        self.decoder = decoder
        self.requiresAuthentication = requiresAuthentication
        self.firingFunction = firingFunction
    }

    /// A server from a base URL such as `"http://localhost:3000/api/v1"`.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the string is not an absolute
    ///   http(s) URL with a host, or carries a query or fragment.
    public init(
        baseURL: String,
        defaultHeaders: HTTPHeaders = [:],
        actions: [any NetworkAction] = [],
        decoder: JSONDecoder = JSONDecoder(),
        requiresAuthentication: Bool = false,
        firingFunction: FiringFunction = .production
    ) throws(NetworkError) {
        guard let components = URLComponents(string: baseURL.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme, let host = components.host, !host.isEmpty else {
            throw .invalidRequest(RequestProblem(.url, "base URL \"\(baseURL)\" is not an absolute URL with a scheme and a host"))
        }
        guard ["http", "https"].contains(scheme.lowercased()) else {
            throw .invalidRequest(RequestProblem(.scheme, "base URL \"\(baseURL)\" has scheme \"\(scheme)\"; Salvo sends HTTP requests, so use https:// (or http:// for a local server)"))
        }
        guard components.query == nil, components.fragment == nil else {
            throw .invalidRequest(RequestProblem(.url, "base URL \"\(baseURL)\" must not have a query or fragment; use defaultQuery"))
        }
        self.init(
            scheme: scheme,
            host: host,
            port: components.port,
            basePath: EndpointPath(percentEncoded: components.percentEncodedPath),
            defaultHeaders: defaultHeaders,
            actions: actions,
            decoder: decoder,
            requiresAuthentication: requiresAuthentication,
            firingFunction: firingFunction
        )
    }
}
