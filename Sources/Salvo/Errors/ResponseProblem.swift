import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response that arrived but that an action refused, and why.
///
/// Validation uses it for a content type the endpoint does not accept; the refresh action for a
/// `401` it could not cure (the refresh failed, or too many refreshes ran); your own actions may
/// return it from ``NetworkAction/decide(after:for:attempt:)`` with `.fail(.unacceptableResponse(…))`.
///
/// ```swift
/// catch .unacceptableResponse(let problem) {
///     log(problem.reason, problem.statusCode, problem.underlying)
/// }
/// ```
public struct ResponseProblem: Sendable, CustomStringConvertible {
    /// What is wrong with the response, in words a person can act on.
    public let reason: String
    /// The response's HTTP status code, if an HTTP response arrived.
    public let statusCode: Int?
    /// The URL that answered.
    public let url: URL?
    /// The response headers, keys compared case-insensitively.
    public let headers: HTTPHeaders
    /// The response body, if any.
    public let body: Data?
    /// The error that made the response impossible to accept, such as a failed token refresh.
    public let underlying: (any Error)?

    /// Describes a refused response from its parts.
    public init(
        _ reason: String,
        statusCode: Int? = nil,
        url: URL? = nil,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        underlying: (any Error)? = nil
    ) {
        self.reason = reason
        self.statusCode = statusCode
        self.url = url
        self.headers = headers
        self.body = body
        self.underlying = underlying
    }

    /// Describes why the response in `outcome` is refused, taking its status, URL, headers and body.
    public init(_ reason: String, outcome: NetworkOutcome, underlying: (any Error)? = nil) {
        let http = outcome.httpResponse
        self.init(
            reason,
            statusCode: http?.statusCode,
            url: outcome.response?.url ?? outcome.request?.url,
            headers: http.map(HTTPHeaders.init) ?? [:],
            body: outcome.data,
            underlying: underlying
        )
    }

    /// `"<url> answered <status>: <reason>"`.
    public var description: String {
        let url = url?.absoluteString ?? "the server"
        let status = statusCode.map { " with status \($0)" } ?? ""
        return "\(url) answered\(status), but the response was refused: \(reason)"
    }
}
