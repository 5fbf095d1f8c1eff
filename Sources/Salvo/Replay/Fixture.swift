import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One recorded exchange as stored on disk: pretty-printed JSON with sorted keys, so a fixture
/// reads well and diffs line by line.
///
/// ```json
/// {
///   "request" : { "bodyHash" : "fnv1a64:…", "headers" : { … }, "method" : "GET", "url" : "…" },
///   "response" : { "body" : { "text" : "{\"id\":42}" }, "headers" : { … }, "status" : 200 },
///   "version" : 1
/// }
/// ```
///
/// After a redirect, `response.url` holds the URL the response came from (redacted), so replay
/// reports it as production does. A streamed response also keeps `response.chunks`: the size of
/// each chunk and when it arrived, in milliseconds after the head, so replay streams it the same
/// way; the body is still stored once, whole. Fixtures written before either field existed still load.
package struct Fixture: Codable, Sendable, Equatable {
    /// The format version; files with another version are refused with a clear error.
    package static let currentVersion = 1
    /// `SALVO_FIXTURE_MODE`, the variable SalvoTesting's `FixtureMode` reads, named here so replay's
    /// messages can say how to record a missing fixture.
    package static let modeVariable = "SALVO_FIXTURE_MODE"

    package var version: Int
    package var request: Request
    package var response: Response
    /// When the exchange was recorded (ISO 8601), only with ``FixtureOptions/recordsTimestamps``.
    package var recordedAt: String?

    /// What was sent, with secrets redacted.
    package struct Request: Codable, Sendable, Equatable {
        package var method: String
        package var url: String
        package var headers: [String: String]
        /// A hash of the request body after field redaction, if there was one. The body itself is
        /// not stored; hashing it redacted keeps a guessable password out of the file too.
        package var bodyHash: String?
    }

    /// What came back, with secret headers and body fields redacted.
    package struct Response: Codable, Sendable, Equatable {
        package var status: Int
        package var headers: [String: String]
        package var body: Body?
        /// The URL the response came from, only when a redirect made it differ from the request's.
        package var url: String?
        /// The chunks a streamed body arrived in, in order; nil when it was read whole.
        package var chunks: [Chunk]?

        /// The headers replay answers with. A `Content-Length` counts the stored body (fixtures
        /// recorded before redaction corrected it still announce the length the server sent),
        /// except under a `Content-Encoding`: there it counts the encoded bytes on the wire, as
        /// production reports it beside the decoded body, and no body length says otherwise.
        package var httpHeaders: HTTPHeaders {
            let counted = Self.isEncoded(headers) ? headers : Self.headers(headers, countingBody: body?.data)
            return HTTPHeaders(counted.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }

        /// Whether `headers` name a `Content-Encoding` other than `identity`.
        static func isEncoded(_ headers: [String: String]) -> Bool {
            headers.contains { name, value in
                name.lowercased() == "content-encoding" && value.trimmingCharacters(in: .whitespaces).lowercased() != "identity"
            }
        }

        /// `headers` with a `Content-Length` (any case) set to the length of `body`; unchanged
        /// when there is no such header or no stored body (a `HEAD` or `304` announces a length
        /// it does not send).
        package static func headers(_ headers: [String: String], countingBody body: Data?) -> [String: String] {
            guard let body, let name = headers.keys.first(where: { $0.lowercased() == "content-length" }),
                  headers[name] != String(body.count) else { return headers }
            var counted = headers
            counted[name] = String(body.count)
            return counted
        }
    }

    /// A body: UTF-8 text as a string, anything else as base64.
    package struct Body: Codable, Sendable, Equatable {
        package var text: String?
        package var base64: String?

        package init(text: String?, base64: String?) {
            self.text = text
            self.base64 = base64
        }

        package init(_ data: Data) {
            if let text = String(data: data, encoding: .utf8), Data(text.utf8) == data {
                self.text = text
            } else {
                base64 = data.base64EncodedString()
            }
        }

        /// The bytes, or nil when neither field holds a valid body.
        package var data: Data? {
            if let text { return Data(text.utf8) }
            return base64.flatMap { Data(base64Encoded: $0) }
        }
    }

    /// A fixture from its parts.
    package init(version: Int, request: Request, response: Response, recordedAt: String?) {
        self.version = version
        self.request = request
        self.response = response
        self.recordedAt = recordedAt
    }

    /// A fixture of `request` and its answer, redacted and, unless `options` ask for timestamps,
    /// without the response's `Date` header, so the same exchange always gives the same file.
    ///
    /// - Parameter chunks: the chunks `body` arrived in, for a streamed response.
    package init(request: URLRequest, response: HTTPURLResponse, body: Data?, chunks: [Chunk]? = nil, options: FixtureOptions) {
        self.init(request: request, response: response, body: body, chunks: chunks, redaction: options.redaction)
        if options.recordsTimestamps {
            recordedAt = ISO8601DateFormatter().string(from: Date())
        } else {
            self.response.headers = self.response.headers.filter { $0.key.lowercased() != "date" }
        }
    }

    /// A fixture of `request` and its answer, with `redaction` applied to both before anything is
    /// kept; `chunks` are laid over the redacted body.
    package init(request: URLRequest, response: HTTPURLResponse, body: Data?, chunks: [Chunk]? = nil, redaction: Redaction) {
        let redacted = redaction.redact(request)
        version = Self.currentVersion
        self.request = Request(
            method: request.httpMethod ?? "GET",
            url: redacted.url?.absoluteString ?? "",
            headers: redacted.allHTTPHeaderFields ?? [:],
            bodyHash: FixtureName.bodyHash(of: request, redaction: redaction)
        )
        let redact = { (data: Data) in Self.redact(data, of: response, answering: request, with: redaction) }
        let redactedBody = body.flatMap { $0.isEmpty ? nil : redact($0) }
        var keptChunks: [Chunk]?
        if let chunks, let body, let redactedBody {
            keptChunks = Self.chunks(chunks, of: body, redactedTo: redactedBody, by: redact)
        }
        self.response = Response(
            status: response.statusCode,
            // Only a redaction that changed the body changes its length: the server's
            // `Content-Length` of an encoded body counts the bytes on the wire, not the decoded ones kept.
            headers: Response.headers(redaction.redact(HTTPHeaders(response)).dictionary, countingBody: redactedBody == body ? nil : redactedBody),
            body: redactedBody.map(Body.init),
            url: response.url.flatMap { $0 == request.url ? nil : redaction.redact($0).absoluteString },
            chunks: keptChunks
        )
    }

    /// `body` with hidden fields replaced and, in text, every secret the request sent (a token a
    /// server echoes, say), so that the file can be committed.
    private static func redact(_ body: Data, of response: HTTPURLResponse, answering request: URLRequest, with redaction: Redaction) -> Data {
        let fields = redaction.redact(body, contentType: response.value(forHTTPHeaderField: "Content-Type"))
        guard let text = String(data: fields, encoding: .utf8) else { return fields }
        let scrubbed = SecretValues(of: request, hiddenBy: redaction, includingBody: true).scrub(text)
        return scrubbed == text ? fields : Data(scrubbed.utf8)
    }

    /// The fixture as written to disk.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// What to do about a fixture in format `version`, which this Salvo does not read.
    package static func versionProblem(_ version: Int, file: URL) -> String {
        let rerecord = "re-record it: run the tests once with \(modeVariable)=rerecord, or fire through SalvoTesting's FiringFunction.recording(to:)"
        if version > currentVersion {
            return "fixture file \(file.path) is in format version \(version), newer than the version \(currentVersion) this Salvo reads; update Salvo, or \(rerecord)"
        }
        return "fixture file \(file.path) is in format version \(version), older than the version \(currentVersion) this Salvo reads; \(rerecord)"
    }

    /// Why `data`, the contents of `file`, did not decode: not JSON, another format version (which
    /// may be shaped differently, so the version says what to do), or a missing or wrong field.
    private static func problem(decoding data: Data, file: URL, error: any Error) -> NetworkError {
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            return FixtureFile.problem("fixture file \(file.path) is not JSON")
        }
        if let version = (json as? [String: Any])?["version"] as? Int, version != currentVersion {
            return FixtureFile.problem(versionProblem(version, file: file))
        }
        let reason = (error as? DecodingError)?.plainReason ?? "\(error)"
        return FixtureFile.problem("fixture file \(file.path) is not a Salvo fixture: \(reason)")
    }

    /// Loads and checks the fixture at `url`.
    ///
    /// - Throws: ``NetworkError/incompleteSetup(_:)`` with part `.fixture` naming the file when it
    ///   is missing, empty, not JSON, not in this format, or holds an impossible status or body.
    package static func load(from url: URL) throws(NetworkError) -> Fixture {
        try load(FixtureFile.read(url), from: url)
    }

    /// Checks `data`, the contents of the fixture file `url`, and returns the fixture in it.
    ///
    /// - Throws: as ``load(from:)`` does, for an empty file too.
    package static func load(_ data: Data, from url: URL) throws(NetworkError) -> Fixture {
        guard !data.isEmpty else { throw FixtureFile.problem("fixture file \(url.path) is empty") }
        let fixture: Fixture
        if let parsed = Fixture(parsing: data) {
            fixture = parsed
        } else {
            // The slower decoder says what is wrong (a missing or mistyped field), or rarely reads it after all.
            do {
                fixture = try JSONDecoder().decode(Fixture.self, from: data)
            } catch {
                throw problem(decoding: data, file: url, error: error)
            }
        }
        guard fixture.version == currentVersion else {
            throw FixtureFile.problem(versionProblem(fixture.version, file: url))
        }
        guard (100...599).contains(fixture.response.status) else {
            throw FixtureFile.problem("fixture file \(url.path) has status \(fixture.response.status), outside 100–599")
        }
        if let responseURL = fixture.response.url, URL(string: responseURL) == nil {
            throw FixtureFile.problem("fixture file \(url.path) has a response url \"\(responseURL)\" that is not a URL")
        }
        if let body = fixture.response.body, body.data == nil {
            throw FixtureFile.problem("fixture file \(url.path) has a response body with neither \"text\" nor valid \"base64\"")
        }
        if let chunk = fixture.response.chunks?.first(where: { $0.bytes < 0 || $0.ms < 0 }) {
            throw FixtureFile.problem("fixture file \(url.path) has a response chunk of \(chunk.bytes) bytes at \(chunk.ms) ms; neither may be negative")
        }
        return fixture
    }
}
