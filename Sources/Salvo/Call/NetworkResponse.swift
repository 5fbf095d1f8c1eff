import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A successful response: its body and the head it came with.
///
/// The status, header fields and final URL are the head's:
///
/// ```swift
/// let response = try await call.response()
/// response.head?.statusCode                  // 200
/// response.head?.headers["Link"]             // the next page
/// response.head?.url                         // after redirects, the last one
/// response.cacheStatus                       // through a CachingSession
/// ```
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

    // What the library reads of the head; an app reads them through `head`.

    /// The head as Foundation's `URLResponse`.
    var urlResponse: URLResponse? { head?.urlResponse }

    /// The HTTP status code, if this is an HTTP response.
    var statusCode: Int? { head.flatMap { $0.isHTTP ? $0.statusCode : nil } }

    /// The URL the response came from: after redirects, the last one.
    var url: URL? { head?.url }

    /// The HTTP header fields, empty for a non-HTTP response.
    var headers: HTTPHeaders { head?.headers ?? [:] }

    /// Where the response came from (network, cache, revalidated, stale after an error) and how
    /// old it is, when it was fired through a ``CachingSession``; `nil` otherwise.
    public var cacheStatus: CacheStatus? { head?.cacheStatus }
}
