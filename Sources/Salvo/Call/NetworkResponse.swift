import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A successful response: its status, header fields, final URL and body.
///
/// ```swift
/// let response = try await call.response()
/// response.statusCode                        // 200
/// response.headers["ETag"]                   // any case
/// response.links.url(forRelation: "last", relativeTo: response.url)   // RFC 8288 Link
/// response.url                               // after redirects, the last one
/// response.cacheStatus                       // through a CachingSession
/// ```
public struct NetworkResponse: Sendable {
    /// The body, empty when there was none.
    public let data: Data
    /// The response head, `nil` only for firing functions that produce no response; an app
    /// reads its parts on the response (``statusCode``, ``headers``, ``url``).
    @_spi(Transport) public let head: ResponseHead?
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

    /// The head as Foundation's `URLResponse`.
    var urlResponse: URLResponse? { head?.urlResponse }

    /// The HTTP status code: `200`, `201`, `204`, …; `nil` for a response that is not HTTP (a
    /// `file:` URL's) or a firing function that produced no response.
    public var statusCode: Int? { head.flatMap { $0.isHTTP ? $0.statusCode : nil } }

    /// The header fields, looked up in any case (`headers["etag"]`); a field the server repeated
    /// reads once, its values joined with `", "`. Empty for a response that is not HTTP.
    public var headers: HTTPHeaders { head?.headers ?? [:] }

    /// The URL that answered: the request's, or after redirects the last one.
    public var url: URL? { head?.url }

    /// The response as Foundation's `HTTPURLResponse`, for APIs that take one; `nil` for a
    /// response that is not HTTP.
    public var httpURLResponse: HTTPURLResponse? { head?.httpURLResponse }

    /// The links of the `Link` header (RFC 8288), every relation: `next`, `prev`, `first`,
    /// `last`, or your API's own; empty when the response has none.
    ///
    /// ```swift
    /// let lastPage = response.links.url(forRelation: "last", relativeTo: response.url)
    /// ```
    public var links: LinkHeader { LinkHeader(parsing: headers["Link"] ?? "") }

    /// Where the response came from (network, cache, revalidated, stale after an error) and how
    /// old it is, when it was fired through a ``CachingSession``; `nil` otherwise.
    public var cacheStatus: CacheStatus? { head?.cacheStatus }
}
