import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// A call builds its request when configured; every change to its server or endpoint must show
/// in what it sends next, and copies must not share changes.
@Suite struct ConfiguredRequestTests {
    let server = ServerConfig(host: "api.example.com", basePath: "v1")

    @Test func changingTheEndpointRebuildsTheRequest() throws {
        var call = NetCall(server: server, endpoint: .get("/users"))
        call.endpoint = .post("/users", body: .text("hi"))
        let request = try call.urlRequest()
        #expect(request.httpMethod == "POST")
        #expect(request.httpBody == Data("hi".utf8))
    }

    @Test func mutatingPartsInPlaceRebuildsTheRequest() throws {
        var call = NetCall(server: server, endpoint: .get("/users"))
        call.endpoint.query.append(URLQueryItem(name: "page", value: "2"))
        call.endpoint.headers["X-Trace"] = "t1"
        call.server.host = "staging.example.com"
        call.server.port = 8443
        let request = try call.urlRequest()
        #expect(request.url?.absoluteString == "https://staging.example.com:8443/v1/users?page=2")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "t1")
    }

    @Test func aCopyKeepsItsOwnRequest() throws {
        let original = NetCall(server: server, endpoint: .get("/users"))
        var copy = original
        copy.endpoint.path = "/books"
        #expect(try original.urlRequest().url?.path == "/v1/users")
        #expect(try copy.urlRequest().url?.path == "/v1/books")
    }

    @Test func fixingAnInvalidPartMakesTheCallValid() throws {
        var call = NetCall(server: ServerConfig(host: ""), endpoint: .get("/users"))
        #expect(throws: NetworkError.self) { try call.urlRequest() }
        call.server.host = "api.example.com"
        #expect(try call.urlRequest().url?.host == "api.example.com")
        call.endpoint.headers["X-Bad"] = "a\r\nb"
        #expect(throws: NetworkError.self) { try call.urlRequest() }
    }

    @Test func anInvalidCallStillFailsWhenFiredNotWhenConfigured() async {
        let session = ScriptedSession(.status(200))
        let call = NetCall(server: ServerConfig(host: "a b"), endpoint: .get("/x"), firingFunction: .session(session))
        await #expect {
            try await call.response()
        } throws: { error in
            guard case .invalidRequest(let problem) = error as? NetworkError else { return false }
            return problem.part == .host
        }
        #expect(session.requests.isEmpty)
    }

    /// Against the real server: a call fired, changed, and fired again sends the changed request.
    @Test func firingAfterAChangeSendsTheChangedRequest() async throws {
        var call = NetCall(server: try await .loopback(), endpoint: .get("/echo/first"), firingFunction: .production)
        let first = try await call.value(as: Echo.self)
        call.endpoint.path = "/echo/second"
        call.endpoint.query = [URLQueryItem(name: "n", value: "2")]
        call.server.defaultHeaders["X-Env"] = "staging"
        let second = try await call.value(as: Echo.self)
        #expect(first.path == "/echo/first")
        #expect(second.path == "/echo/second")
        #expect(second.queryPairs == [["n", "2"]])
        #expect(second.header("X-Env") == "staging")
    }
}
