import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response whose status code was not acceptable, with what the server sent.
public struct ServerFailure: Sendable, Hashable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The URL that answered.
    public let url: URL?
    /// The response body, `nil` or empty when the server sent none.
    public let body: Data?
    /// The response headers, keys compared case-insensitively.
    public let headers: HTTPHeaders

    /// Describes an unacceptable response.
    public init(statusCode: Int, url: URL?, body: Data?, headers: HTTPHeaders = [:]) {
        self.statusCode = statusCode
        self.url = url
        self.body = body
        self.headers = headers
    }

    /// Describes the unacceptable `response` and its `body`.
    public init(response: HTTPURLResponse, body: Data?) {
        self.init(statusCode: response.statusCode, url: response.url, body: body, headers: HTTPHeaders(response))
    }
}
