import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A successful response: its body and the HTTP response it came with.
public struct NetworkResponse: Sendable {
    /// The body, empty when there was none.
    public let data: Data
    /// The response head, `nil` only for firing functions that produce no response.
    public let head: ResponseHead?
    /// What each attempt of the call measured, in attempt order; empty unless the server
    /// collects metrics (``ServerConfig/collectsMetrics``).
    public let metrics: [AttemptMetrics]

    /// A response from its parts.
    @_spi(Transport) public init(data: Data, head: ResponseHead?, metrics: [AttemptMetrics] = []) {
        self.data = data
        self.head = head
        self.metrics = metrics
    }

    /// A response from its parts, with the head as Foundation reported it.
    @_spi(Transport) public init(data: Data, urlResponse: URLResponse?) {
        self.init(data: data, head: urlResponse.flatMap(ResponseHead.init))
    }

    /// The head as Foundation's `URLResponse`: the one the transport reported, or one made
    /// from ``head`` the first time it is read.
    public var urlResponse: URLResponse? { head?.urlResponse }

    /// The HTTP status code, if this is an HTTP response.
    public var statusCode: Int? { head.flatMap { $0.isHTTP ? $0.statusCode : nil } }

    /// The URL the response came from: after redirects, the last one.
    public var url: URL? { head?.url }

    /// The HTTP header fields, empty for a non-HTTP response.
    public var headers: HTTPHeaders { head?.headers ?? [:] }

    /// Where the response came from (network, cache, revalidated, stale after an error) and how
    /// old it is, when it was fired through a ``CachingSession``; `nil` otherwise.
    public var cacheStatus: CacheStatus? { head?.cacheStatus }
}
