import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A successful response with its body decoded: the value, and the status, header fields and
/// final URL it came with (rate limits, ETags, pagination headers).
///
/// ```swift
/// let page = try await issuesCall.response()
/// show(page.value)
/// rateLimit = page.headers["X-RateLimit-Remaining"]
/// ```
public struct TypedResponse<Value> {
    /// The decoded body.
    public let value: Value
    /// The undecoded response: its head and body bytes.
    public let response: NetworkResponse

    /// A typed response from its parts.
    @_spi(Transport) public init(value: Value, response: NetworkResponse) {
        self.value = value
        self.response = response
    }

    /// The HTTP status code; `nil` only for firing functions that produce no HTTP response.
    public var statusCode: Int? { response.statusCode }

    /// The HTTP header fields (case-insensitive names).
    public var headers: HTTPHeaders { response.headers }

    /// The URL the response came from: after redirects, the last one.
    public var url: URL? { response.url }

    /// What each attempt of the call measured; empty unless the server collects metrics.
    public var metrics: [AttemptMetrics] { response.metrics }

    /// Where the response came from and how old it is, when fired through a ``CachingSession``.
    public var cacheStatus: CacheStatus? { response.cacheStatus }
}

extension TypedResponse: Sendable where Value: Sendable {}
