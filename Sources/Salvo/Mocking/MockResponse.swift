import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A canned answer for mock firing: an HTTP response (status, headers, body) or a transport error,
/// optionally after a simulated delay.
///
/// Bodies come from `Data`, text, any `Encodable`, a file, a bundle resource, or a recorded fixture,
/// and arrive whole; streamed bodies (``chunks(_:every:status:headers:)``,
/// ``events(_:every:status:headers:)``, ``lines(_:every:status:headers:)``) arrive piece by piece.
/// Files are read when the answer is given, so a missing or malformed file fails that call with
/// ``NetworkError/incompleteSetup(_:)`` naming the file; nothing crashes.
///
/// ```swift
/// call.firingFunction = .mock(.json(user))
/// call.firingFunction = .mock(.text("teapot", status: 418))
/// call.firingFunction = .mock(.failure(.notConnectedToInternet).delayed(by: 0.5))
/// ```
public struct MockResponse: Sendable {
    enum Answer: Sendable {
        /// Boxed: a mock hands out a copy of its answer every firing, and a boxed one copies as one
        /// retain instead of its headers, body and status field by field.
        indirect case http(status: Int, headers: HTTPHeaders, body: MockBody)
        case failure(URLError)
        case problem(reason: String, part: SetupProblem.Part)
        /// Resolved to one of its entries by ``next()`` before it is given.
        case sequence(MockSequence)
    }

    let answer: Answer
    /// Seconds to wait before answering; added to any latency the network conditions draw. Set with
    /// ``delayed(by:)``.
    var latency: TimeInterval = 0

    init(_ answer: Answer) {
        self.answer = answer
    }

    /// An answer that fails the call with ``NetworkError/incompleteSetup(_:)`` for `part`,
    /// saying `reason`: a setup mistake (a broken fixture, a used-up sequence) named where it happened.
    package static func problem(_ reason: String, part: SetupProblem.Part) -> MockResponse {
        MockResponse(.problem(reason: reason, part: part))
    }

    /// A response with `status`, `headers` and raw `body`.
    public static func status(_ status: Int, headers: HTTPHeaders = [:], body: Data = Data()) -> MockResponse {
        MockResponse(.http(status: status, headers: headers, body: .data(body)))
    }

    /// A response whose body is `data`.
    public static func data(_ data: Data, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        .status(status, headers: headers, body: data)
    }

    /// A response whose body is `text` in UTF-8 (`Content-Type: text/plain` unless `headers` set one).
    public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        .status(status, headers: defaulting(headers, contentType: "text/plain; charset=utf-8"), body: Data(text.utf8))
    }

    /// A response whose body is `value` encoded as JSON (`Content-Type: application/json`).
    ///
    /// A value that cannot be encoded fails the call with a clear ``NetworkError/incompleteSetup(_:)``.
    public static func json<Value: Encodable>(
        _ value: Value,
        status: Int = 200,
        headers: HTTPHeaders = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockResponse {
        do {
            let body = try encoder.encode(value)
            return .status(status, headers: defaulting(headers, contentType: "application/json"), body: body)
        } catch {
            return MockResponse(.problem(reason: "the mock value of type \(Value.self) could not be encoded as JSON: \(error)", part: .mock))
        }
    }

    /// A response whose body is the contents of the file at `url`, read when the call is answered.
    ///
    /// `Content-Type` follows the file extension (`.json`, `.txt`, `.html`, `.xml`, `.png`, `.jpg`)
    /// unless `headers` set one. A missing or empty file, or a `.json` file that is not JSON, fails
    /// the call naming the file.
    public static func file(_ url: URL, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        let type = MockBody.contentType(forExtension: url.pathExtension)
        return MockResponse(.http(status: status, headers: type.map { defaulting(headers, contentType: $0) } ?? headers, body: .file(url)))
    }

    /// A response whose body is the bundle resource `name`, e.g. `.resource("user.json", in: .module)`.
    public static func resource(_ name: String, in bundle: Bundle, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        let file = name as NSString
        let ext = file.pathExtension
        guard let url = bundle.url(forResource: ext.isEmpty ? name : file.deletingPathExtension, withExtension: ext.isEmpty ? nil : ext) else {
            return MockResponse(.problem(reason: "fixture resource \"\(name)\" is not in bundle \(bundle.bundleURL.path)", part: .mock))
        }
        return .file(url, status: status, headers: headers)
    }

    /// The response recorded in the Salvo fixture file at `url` (see SalvoTesting's `FiringFunction.recording(to:options:through:)`).
    public static func fixture(_ url: URL) -> MockResponse {
        MockResponse(.http(status: 0, headers: [:], body: .fixture(url)))
    }

    /// A transport failure such as `.notConnectedToInternet` or `.timedOut`.
    public static func failure(_ code: URLError.Code) -> MockResponse {
        .failure(URLError(code))
    }

    /// A transport failure with the given error.
    static func failure(_ error: URLError) -> MockResponse {
        MockResponse(.failure(error))
    }

    /// This answer, given after `seconds` more (cancelling the call ends the wait at once).
    public func delayed(by seconds: TimeInterval) -> MockResponse {
        var copy = self
        copy.latency = NetworkConditions.clampedDelay(latency + seconds)
        return copy
    }

    /// What a session reports for an answer: the head, the body, and the chunks the body arrives
    /// in (nil when it arrives whole with the head).
    struct Resolved {
        var head: ResponseHead
        var body: Data
        var chunks: [BodyPacing.Chunk]?
    }

    /// What a session reports for this answer to `request`.
    ///
    /// Thrown rather than returned as a `Result`: mock firing answers every call through here, and
    /// copying the `Result` and its payload on the way out cost more than resolving the answer.
    ///
    /// - Throws: the transport error this answer stands for, or
    ///   ``NetworkError/incompleteSetup(_:)`` for an answer that cannot be made (an unreadable file).
    func resolved(for request: URLRequest) throws -> Resolved {
        switch answer {
        case .sequence(let sequence):
            // Firing resolves a sequence with `next()` first (for its latency); here only its answer counts.
            return try sequence.next().resolved(for: request)
        case .failure(let error):
            throw error
        case .problem(let reason, let part):
            throw NetworkError.incompleteSetup(SetupProblem(part, reason))
        case .http(let status, let headers, .data(let body)):
            // The common canned answer: its body is at hand, so nothing is loaded.
            let head = ResponseHead(statusCode: status, headers: headers, url: request.url ?? URL(fileURLWithPath: "/"))
            return Resolved(head: head, body: body, chunks: nil)
        case .http(let status, let headers, let body):
            let loaded = try body.load(status: status, headers: headers)
            let url = loaded.url ?? request.url ?? URL(fileURLWithPath: "/")
            let head = ResponseHead(statusCode: loaded.status, headers: loaded.headers, url: url)
            return Resolved(head: head, body: loaded.body, chunks: loaded.chunks)
        }
    }

    static func defaulting(_ headers: HTTPHeaders, contentType: String) -> HTTPHeaders {
        var headers = headers
        if !headers.contains("Content-Type") { headers["Content-Type"] = contentType }
        return headers
    }
}

extension MockResponse {
    /// A redirect to `location` (absolute, or relative to the request's URL) that mock firing
    /// follows as production does (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`): 302
    /// by default; 303, and 301/302 after a `POST`, continue as `GET`; 307 and 308 keep method and
    /// body; credentials are dropped across origins; a loop ends after 20 redirects.
    ///
    /// ```swift
    /// .get("/old", .redirect(to: "/new", status: 301))
    /// ```
    public static func redirect(to location: String, status: Int = 302) -> MockResponse {
        .status(status, headers: ["Location": location])
    }
}
