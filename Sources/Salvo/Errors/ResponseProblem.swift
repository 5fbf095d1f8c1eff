import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response Salvo did not accept, with what the server sent and why.
///
/// It is the payload of both response errors:
/// - ``NetworkError/serverStatus(_:)``: the status is outside the accepted range (200–299 by
///   default); ``statusCode`` is always set.
/// - ``NetworkError/unacceptableResponse(_:)``: an action refused the response — validation for a
///   content type the endpoint does not accept, the token renewal action for a `401` it could not
///   cure, your own actions through ``NetworkAction/decide(after:for:attempt:)`` with
///   `.fail(.unacceptableResponse(…))` — or a body broke its format or a limit (a stream's line
///   too long, a list with more pages than `loadAll` allows).
///
/// ```swift
/// catch .serverStatus(let problem) where problem.statusCode == 404 {
///     showNotFound()
/// } catch .unacceptableResponse(let problem) {
///     log(problem.reason, problem.statusCode, problem.underlying)
/// }
/// ```
public struct ResponseProblem: Sendable, CustomStringConvertible {
    /// What is wrong with the response, in words a person can act on.
    public let reason: String
    /// The response's HTTP status code; always set for ``NetworkError/serverStatus(_:)``, `nil`
    /// where no single response is at hand (a list with too many pages).
    public let statusCode: Int?
    /// The URL that answered.
    public let url: URL?
    /// The response headers, keys compared case-insensitively.
    public let headers: HTTPHeaders
    /// The response body, if any.
    public let body: Data?
    /// The error that made the response impossible to accept, such as a failed token renewal.
    public let underlying: (any Error)?
    /// Whether ``TokenRenewalAction`` refused the response because the token could not be
    /// renewed; read it through ``NetworkError/isRenewalFailure``.
    var isRenewalFailure = false

    /// Describes a refused response from its parts.
    init(
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

    /// Describes a response whose status is not accepted, from its parts.
    @_spi(Transport) public init(statusCode: Int, url: URL?, body: Data?, headers: HTTPHeaders = [:]) {
        self.init("status \(statusCode) is not accepted", statusCode: statusCode, url: url, headers: headers, body: body)
    }

    /// The problem of a status the call does not accept, read from the response `head`.
    @_spi(Transport) public init(head: ResponseHead, body: Data?) {
        self.init(statusCode: head.statusCode, url: head.url, body: body, headers: head.headers)
    }

    /// Describes a response whose status is not accepted, with its `body`.
    @_spi(Transport) public init(response: HTTPURLResponse, body: Data?) {
        self.init(statusCode: response.statusCode, url: response.url, body: body, headers: HTTPHeaders(response))
    }

    /// Describes why the response in `outcome` is refused, taking its status, URL, headers and body.
    public init(_ reason: String, outcome: AttemptOutcome, underlying: (any Error)? = nil) {
        self.init(
            reason,
            statusCode: outcome.statusCode,
            url: outcome.head?.url ?? outcome.request?.url,
            headers: outcome.head?.headers ?? [:],
            body: outcome.data,
            underlying: underlying
        )
    }

    /// This problem found in the body of the response `head` began: its status, URL and headers
    /// filled in where the problem had none (a line too long is found by a reader that never saw
    /// the head).
    func answered(by head: ResponseHead) -> ResponseProblem {
        var problem = ResponseProblem(
            reason,
            statusCode: statusCode ?? head.statusCode,
            url: url ?? head.url,
            headers: headers.isEmpty ? head.headers : headers,
            body: body,
            underlying: underlying
        )
        problem.isRenewalFailure = isRenewalFailure
        return problem
    }

    /// `"<url> answered with status <status>, but the response was refused: <reason>"`, the URL
    /// with ``Redaction/default`` applied.
    public var description: String {
        let url = url.map { Redaction.default.redact($0).absoluteString } ?? "the server"
        let status = statusCode.map { " with status \($0)" } ?? ""
        return "\(url) answered\(status), but the response was refused: \(reason)"
    }
}
