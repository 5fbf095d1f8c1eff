import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a mock answers, with the values a matching route captured from its path.
///
/// ```swift
/// MockRoute(.get, "/users/:id") { request in
///     .json(User(id: request.parameters["id"] ?? ""))
/// }
/// ```
public struct MockRequest: Sendable {
    /// The request as the session received it, after every action adapted it.
    public let request: URLRequest
    /// Path parameters captured by a route pattern (`:id` → `"42"`), percent-decoded.
    public let parameters: [String: String]
    /// A body made while it is sent (``RequestBody/stream(length:contentType:_:)``), read by the
    /// session before it asked for the answer.
    let madeBody: Data?

    /// A mock request for `request`, with captured path `parameters`; mock firing builds these,
    /// tests of a route's answer or a matcher may too (`@_spi(Transport) import Salvo`).
    @_spi(Transport) public init(_ request: URLRequest, parameters: [String: String] = [:]) {
        self.init(request, parameters: parameters, madeBody: nil)
    }

    init(_ request: URLRequest, parameters: [String: String] = [:], madeBody: Data?) {
        self.request = request
        self.parameters = parameters
        self.madeBody = madeBody
    }

    /// The same request with the path parameters a route captured.
    func with(parameters: [String: String]) -> MockRequest {
        MockRequest(request, parameters: parameters, madeBody: madeBody)
    }

    /// The request method.
    public var method: HTTPMethod { HTTPMethod(request.httpMethod ?? "GET") }

    /// The request URL; `request.url` to a user.
    var url: URL? { request.url }

    /// The decoded query items; for a repeated name the last value wins.
    public var query: [String: String] {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [:] }
        return MockRoutes.queryItems(of: components)
    }

    /// The request body, if any: a streamed one (a multipart form, a file, chunks made while it
    /// is sent) read whole, up to ``streamedBodyLimit`` bytes (`nil` beyond; see ``bodyLength``).
    ///
    /// A multipart form's boundary is new for every request, so match a form's parts (SalvoTesting's `parts`), not its bytes.
    public var body: Data? {
        if let data = request.httpBody ?? madeBody { return data }
        return (request.httpBodyStream as? BodyStream)?.contents(limit: Self.streamedBodyLimit)
    }

    /// The size of the request body in bytes, streamed ones included, without reading files;
    /// `nil` when there is none or its size is unknown (chunks of unannounced length beyond
    /// ``streamedBodyLimit``).
    public var bodyLength: Int64? {
        if let data = request.httpBody { return Int64(data.count) }
        return (request.httpBodyStream as? BodyStream)?.length ?? madeBody.map { Int64($0.count) }
    }

    /// The largest streamed body ``body`` reads into memory (and mock firing reads of a body
    /// made while it is sent): 64 MiB.
    public static let streamedBodyLimit: Int64 = 64 * 1024 * 1024

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { request.value(forHTTPHeaderField: name) }

    /// The body decoded from JSON as `T`.
    ///
    /// - Throws: the decoder's error, or `DecodingError.valueNotFound` when there is no body.
    public func decodeBody<T: Decodable>(as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body else {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "the request has no body"))
        }
        return try decoder.decode(type, from: body)
    }
}
