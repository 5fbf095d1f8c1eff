import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Names Salvo used before each word came to mean one thing (issue 17). They keep old code
// compiling with a warning that names the replacement; CHANGELOG.md lists them.

/// Renamed ``AttemptOutcome``: what one attempt produced.
@available(*, deprecated, renamed: "AttemptOutcome")
public typealias NetworkOutcome = AttemptOutcome

/// Renamed ``RetryAction``: it is a ``NetworkAction`` like the others.
@available(*, deprecated, renamed: "RetryAction")
public typealias RetryPolicy = RetryAction

/// Renamed ``TokenRenewalAction``: Salvo says *renew* for tokens, *refresh* for content.
@available(*, deprecated, renamed: "TokenRenewalAction")
public typealias RefreshTokenAction = TokenRenewalAction

/// Merged into ``ResponseProblem``, the payload of both response errors.
@available(*, deprecated, renamed: "ResponseProblem")
public typealias ServerFailure = ResponseProblem

/// Renamed ``DecodingProblem``: every problem payload ends in `Problem`.
@available(*, deprecated, renamed: "DecodingProblem")
public typealias DecodingFailure = DecodingProblem

extension TokenRenewalAction {
    /// The former `RefreshTokenAction.init`, with its *refresh* labels.
    @available(*, deprecated, renamed: "init(statusCodes:headerName:maxRenewals:window:retryFailedRenewalAfter:now:renew:)")
    public init(
        statusCodes: Set<Int> = [401],
        headerName: String = "Authorization",
        maxRefreshes: Int,
        window: TimeInterval = 60,
        retryFailedRefreshAfter: TimeInterval = 10,
        now: @escaping @Sendable () -> Date = Date.init,
        refresh: @escaping @Sendable () async throws -> Void
    ) {
        self.init(
            statusCodes: statusCodes, headerName: headerName, maxRenewals: maxRefreshes, window: window,
            retryFailedRenewalAfter: retryFailedRefreshAfter, now: now, renew: refresh
        )
    }
}

extension ServerConfig {
    /// Renamed ``basePath``: *route* means a mock route only.
    @available(*, deprecated, renamed: "basePath")
    public var apiRoute: EndpointPath {
        get { basePath }
        set { basePath = newValue }
    }

    /// The former initializer with an `apiRoute:` label.
    @available(*, deprecated, renamed: "init(scheme:host:port:basePath:defaultHeaders:defaultQuery:actions:decoder:)")
    public init(
        scheme: String = "https",
        host: String,
        port: Int? = nil,
        apiRoute: EndpointPath,
        defaultHeaders: HTTPHeaders = [:],
        defaultQuery: [URLQueryItem] = [],
        actions: [any NetworkAction] = [],
        decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(
            scheme: scheme, host: host, port: port, basePath: apiRoute, defaultHeaders: defaultHeaders,
            defaultQuery: defaultQuery, actions: actions, decoder: decoder
        )
    }
}

extension Endpoint {
    /// Renamed ``basePath``: *route* means a mock route only.
    @available(*, deprecated, renamed: "basePath")
    public var apiRoute: EndpointPath? {
        get { basePath }
        set { basePath = newValue }
    }

    /// The former initializer with an `apiRoute:` label.
    @available(*, deprecated, renamed: "init(method:path:query:headers:body:timeout:basePath:requiresAuthentication:)")
    public init(
        method: HTTPMethod = .get,
        path: EndpointPath = "",
        query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        body: RequestBody = .none,
        timeout: TimeInterval? = nil,
        apiRoute: EndpointPath?,
        requiresAuthentication: Bool = false
    ) {
        self.init(
            method: method, path: path, query: query, headers: headers, body: body, timeout: timeout,
            basePath: apiRoute, requiresAuthentication: requiresAuthentication
        )
    }

    /// Renamed ``onBasePath(_:)``.
    @available(*, deprecated, renamed: "onBasePath(_:)")
    public func onAPIRoute(_ route: EndpointPath) -> Endpoint {
        onBasePath(route)
    }
}
