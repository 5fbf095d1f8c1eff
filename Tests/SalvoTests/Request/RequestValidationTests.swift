import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Hostile or mistaken input is refused while the request is built, naming the part that is wrong.
@Suite struct RequestValidationTests {
    let server = ServerConfig(host: "api.example.com")

    private func problem(_ endpoint: Endpoint, on server: ServerConfig? = nil) -> RequestProblem? {
        guard case .failure(.invalidRequest(let problem)) = NetCall.build(server ?? self.server, endpoint) else { return nil }
        return problem
    }

    private func path(_ endpoint: Endpoint) throws -> String {
        try #require(try NetCall(server: server, endpoint: endpoint).urlRequest().url?.absoluteString)
    }

    // MARK: - Dot segments

    @Test(arguments: [(".", "%2E"), ("..", "%2E%2E"), ("...", "..."), (".a", ".a"), ("a..", "a..")])
    func interpolatedDotsStayOneSegment(_ value: String, _ sent: String) throws {
        #expect(try path(.get("/files/\(value)/meta")) == "https://api.example.com/files/\(sent)/meta")
    }

    @Test func segmentsInitializerEncodesDotSegments() throws {
        let endpoint = Endpoint(path: EndpointPath(segments: ["files", "..", ".", "meta"]))
        #expect(try path(endpoint) == "https://api.example.com/files/%2E%2E/%2E/meta")
    }

    @Test(arguments: ["/files/../meta", "/files/./meta", "/..", "./files", "/files/.", "/a/..//b"])
    func literalDotSegmentsAreRefusedNamingThePath(_ text: String) throws {
        let refusal = try #require(problem(.get(EndpointPath(text))))
        #expect(refusal.part == .path)
        #expect(refusal.reason.contains("'.' or '..' segment"))
    }

    @Test func literalDotNextToAnInterpolatedDotIsRefused() {
        // ".%2E" decodes to "..", which a server that decodes before resolving would follow.
        #expect(problem(.get("/files/.\(".")/meta"))?.part == .path)
        #expect(problem(.get("/files/\(".")./meta"))?.part == .path)
        #expect(problem(.get("/files/\("..")./meta")) == nil)
    }

    @Test func dotSegmentInAPIRouteOrPercentEncodedPathIsRefused() {
        let routed = ServerConfig(host: "api.example.com", basePath: "v1/..")
        #expect(problem(.get("/users"), on: routed)?.part == .path)
        #expect(problem(Endpoint(path: EndpointPath(percentEncoded: "/a/../b")))?.part == .path)
    }

    @Test func dotsInsideSegmentsAreFine() throws {
        #expect(try path(.get("/files/report.v2.pdf/..x")) == "https://api.example.com/files/report.v2.pdf/..x")
    }

    // MARK: - Methods

    @Test(arguments: ["POST /x HTTP/1.1\r\nX-Injected: 1\r\nX-A:", "GET /", "", "GE\nT", "GET\0", "PÖST", "GET\t", "(GET)"])
    func methodThatIsNotATokenIsRefusedNamingIt(_ method: String) throws {
        let refusal = try #require(problem(Endpoint(method: HTTPMethod(method), path: "/x")))
        #expect(refusal.part == .method)
        #expect(!refusal.reason.contains("\r") && !refusal.reason.contains("\n") && !refusal.reason.contains("\0"))
        #expect(refusal.reason.hasPrefix("method \""))
    }

    @Test(arguments: ["PURGE", "PROPFIND", "M-SEARCH", "get", "X!#$%&'*+-.^_`|~1"])
    func tokenMethodsAreSentAsGiven(_ method: String) throws {
        let request = try NetCall(server: server, endpoint: Endpoint(method: HTTPMethod(method), path: "/x")).urlRequest()
        #expect(request.httpMethod?.uppercased() == method.uppercased())
    }

    // MARK: - Bodies on GET and HEAD

    @Test(arguments: [HTTPMethod.get, .head, "get"])
    func getOrHeadWithABodyIsRefused(_ method: HTTPMethod) throws {
        let refusal = try #require(problem(Endpoint(method: method, path: "/x", body: .text("hello"))))
        #expect(refusal.part == .body)
        #expect(refusal.reason.contains(method.rawValue.uppercased()))
        #expect(refusal.reason.contains("body"))
    }

    @Test func getWithoutABodyAndPostWithOneAreFine() {
        #expect(problem(.get("/x")) == nil)
        #expect(problem(Endpoint(method: .delete, path: "/x", body: .text("why"))) == nil)
    }

    // MARK: - What actions change

    /// An action that sets one part of the request to something that must not reach the wire.
    private struct Rewrite: NetworkAction {
        let part: RequestProblem.Part
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            var request = request
            switch part {
            case .method: request.httpMethod = "POST /x HTTP/1.1\r\nX-Injected: 1\r\nX-A:"
            // Linux's URLRequest drops a value with CR/LF/NUL by itself but keeps a name with a space.
            case .header: request.setValue("1", forHTTPHeaderField: "X-Injected: 1\r\nX-A")
            default: request.httpBody = Data("hello".utf8)
            }
            return request
        }
    }

    @Test(arguments: [RequestProblem.Part.method, .header, .body])
    func whatAnActionSetsIsValidatedBeforeTheWire(_ part: RequestProblem.Part) async throws {
        let session = ScriptedSession(.status(200))
        let call = NetCall(server: server, endpoint: .get("/x"), actions: [Rewrite(part: part)], firingFunction: .session(session))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        guard case .invalidRequest(let problem) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(problem.part == part)
        #expect(session.requests.isEmpty)
    }
}
