import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import Salvo

/// A `ClientTransport` that sends each operation of a generated client through a Salvo ``NetCall``.
///
/// ```swift
/// let client = Client(serverURL: try Servers.Server1.url(), transport: SalvoTransport(server: .api))
/// let greeting = try await client.getGreeting(query: .init(name: "Ada")).ok.body.json
/// ```
///
/// Everything the server's `ServerConfig` configures applies to every operation: its actions
/// (token renewal on 401, retries, validation, logging), its firing function (mock and replay
/// firing, so a generated client runs offline in previews and tests) and its session (URLSession
/// or AsyncHTTPClient). The server decides where requests go: scheme, host, port and base path
/// come from `server`; the `serverURL` given to the generated client is not used.
///
/// Mock routes answer by operation (``Salvo/MockRoute/operation(_:_:)``): the transport fires each
/// call in a task that knows its `operationId`, which never reaches a server as a header or otherwise.
///
/// A response with any status is handed to the generated client, which decodes documented
/// statuses as their cases and others as `.undocumented`. A failure without a response (no
/// connection, a timeout, an action's refusal, cancellation) is thrown as Salvo's `NetworkError`,
/// which the generated client wraps in `ClientError` as its `underlyingError`.
///
/// A request body up to 64 KiB whose length is known is read into memory; a longer one, or one whose
/// length is unknown (an upload produced in chunks), is streamed as its chunks come, so the upload
/// starts at once and a body made while the response streams works (on Linux, over the
/// AsyncHTTPClient transport: over corelibs `URLSession` Salvo makes the whole body first). A retry, a token renewal or a 307/308 redirect sends it again when its `HTTPBody` can be
/// iterated again, and fails the call naming the operation when it cannot.
/// Response bodies are read whole, or streamed as they arrive from ``NetCall/bytes()``
/// for operations ``streaming`` picks (by default: Server-Sent Events, JSON Lines, JSON Sequence and
/// binary bodies), so that openapi-runtime's `asDecodedServerSentEvents` decodes them as they come.
public struct SalvoTransport: ClientTransport {
    /// The server every operation goes to, with its actions and firing function.
    public var server: ServerConfig
    /// Actions for these operations only; they run after the server's.
    public var actions: [any NetworkAction]
    /// Which operations' response bodies arrive as a stream rather than whole.
    public var streaming: ResponseStreaming
    /// A transport sending through `server`.
    ///
    /// - Parameters:
    ///   - server: where requests go and how they fire: its actions, firing function and session.
    ///   - actions: actions for these operations only, after the server's.
    ///   - streaming: which operations' response bodies arrive as a stream.
    public init(
        server: ServerConfig,
        actions: [any NetworkAction] = [],
        streaming: ResponseStreaming = .eventsLinesAndBinary
    ) {
        self.server = server
        self.actions = actions
        self.streaming = streaming
    }

    /// Sends `request` with `body` through a ``NetCall`` on ``server`` and returns the response.
    ///
    /// - Throws: `NetworkError` when there is no response: the generated client wraps it in
    ///   `ClientError`.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var requestBody = RequestBody.none
        if let body { requestBody = try await OperationBody.requestBody(for: body, operationID: operationID) }
        let call = makeCall(request, body: requestBody)
        let streams = streaming.streams(operationID: operationID, accept: request.headerFields[.accept])
        return try await SentOperation.$current.withValue(SentOperation(operationID, sentAs: call)) {
            try await streams ? Self.streamed(call) : Self.whole(call)
        }
    }

    /// Fires `call` and reads its body whole.
    static func whole(_ call: NetCall) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            let response = try await call.response()
            return (httpResponse(status: response.statusCode ?? 200, of: response.httpURLResponse), HTTPBody(response.data))
        } catch {
            return try answer(from: error)
        }
    }

    /// The call for `request`: its method, path, query and headers, and `body`.
    func makeCall(_ request: HTTPRequest, body: RequestBody) -> NetCall {
        let (path, queryText) = Self.split(request.path ?? "/")
        let endpoint = Endpoint(
            method: HTTPMethod(request.method.rawValue),
            path: EndpointPath(percentEncoded: path),
            query: Self.queryItems(queryText),
            headers: HTTPHeaders(request.headerFields.map { ($0.name.rawName, $0.value) }),
            body: body
        )
        return NetCall(server: server, endpoint: endpoint, actions: actions, callbackQueue: .immediate)
    }

    /// Fires `call` streaming: the head once it arrives, the body as a stream over its chunks.
    static func streamed(_ call: NetCall) async throws -> (HTTPResponse, HTTPBody?) {
        let bytes = call.bytes()
        let head: ResponseHead
        do {
            head = try await bytes.head
        } catch {
            return try answer(from: error)
        }
        let length = head.headers["Content-Length"].flatMap(Int64.init).map { HTTPBody.Length.known($0) } ?? .unknown
        return (httpResponse(status: head.statusCode, headers: head.headers), HTTPBody(bytes, length: length, iterationBehavior: .single))
    }

    /// The response a failure carries (a status outside 200–299, which the generated client decodes
    /// as its documented case), or the failure itself when there was no response.
    static func answer(from error: NetworkError) throws -> (HTTPResponse, HTTPBody?) {
        guard case .serverStatus(let problem) = error, let status = problem.statusCode else { throw error }
        return (httpResponse(status: status, headers: problem.headers), problem.body.map { HTTPBody($0) } ?? HTTPBody())
    }

    /// An `HTTPResponse` with `status` and the fields of `headers` that are valid HTTP fields.
    static func httpResponse(status: Int, headers: HTTPHeaders) -> HTTPResponse {
        var fields = HTTPFields()
        for field in headers {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    /// An `HTTPResponse` with `status` and the header fields of `response`, read straight from it:
    /// going through `HTTPHeaders` (which keeps names unique as it is filled) cost ~20k instructions
    /// per operation on Linux.
    static func httpResponse(status: Int, of response: URLResponse?) -> HTTPResponse {
        var fields = HTTPFields()
        for (key, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    /// The percent-encoded path (without its leading slash) and the query of a request target.
    static func split(_ target: String) -> (path: String, query: String?) {
        let pathAndQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = pathAndQuery.first.map(String.init) ?? ""
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return (trimmed, pathAndQuery.count > 1 ? String(pathAndQuery[1]) : nil)
    }

    /// The decoded items of a percent-encoded query, in order.
    static func queryItems(_ query: String?) -> [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = query
        return components.queryItems ?? []
    }
}
