import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A successful response: its body and the HTTP response it came with.
public struct NetworkResponse: Sendable {
    /// The body, empty when there was none.
    public let data: Data
    /// The response, `nil` only for firing functions that produce no response object.
    public let response: URLResponse?

    /// A response from its parts.
    public init(data: Data, response: URLResponse?) {
        self.data = data
        self.response = response
    }

    /// The HTTP status code, if this is an HTTP response.
    public var statusCode: Int? { (response as? HTTPURLResponse)?.statusCode }

    /// The URL the response came from: after redirects, the last one.
    public var url: URL? { response?.url }

    /// The HTTP header fields, empty for a non-HTTP response.
    public var headers: HTTPHeaders {
        (response as? HTTPURLResponse).map(HTTPHeaders.init) ?? [:]
    }
}
