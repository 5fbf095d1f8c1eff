import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// `URLRequest.redirected(by:redirectCount:credentialHeaders:)`: the one rule set `URLSession`, the mock
/// session and other transports follow redirects by.
@Suite struct RedirectTests {
    private static let start = "https://api.test/start"

    private func request(_ method: String = "GET", body: Data? = nil, headers: [String: String] = [:]) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: Self.start)))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func response(_ status: Int, location: String?, url: String = start) throws -> HTTPURLResponse {
        let url = try #require(URL(string: url))
        return try #require(HTTPURLResponse(
            url: url,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: location.map { ["Location": $0] } ?? [:]
        ))
    }

    @Test(arguments: [
        (301, "POST", "GET"), (302, "POST", "GET"), (303, "POST", "GET"), (303, "PUT", "GET"), (303, "DELETE", "GET"),
        (303, "HEAD", "HEAD"), (301, "PUT", "PUT"), (302, "PATCH", "PATCH"), (307, "POST", "POST"), (308, "PUT", "PUT"),
    ])
    func theMethodFollowsTheStatus(status: Int, method: String, expected: String) throws {
        let next = try #require(try request(method, body: Data("payload".utf8)).redirected(by: response(status, location: "/landed"), redirectCount: 0))
        #expect(next.httpMethod == expected)
        #expect(next.url?.absoluteString == "https://api.test/landed")
    }

    @Test(arguments: [301, 302, 303])
    func switchingToGETDropsTheBodyAndItsHeaders(status: Int) throws {
        let original = try request("POST", body: Data("payload".utf8), headers: ["Content-Type": "text/plain", "Content-Length": "7", "X-Kept": "1"])
        let next = try #require(try original.redirected(by: response(status, location: "/landed"), redirectCount: 0))
        #expect(next.httpBody == nil)
        #expect(next.httpBodyStream == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(next.value(forHTTPHeaderField: "X-Kept") == "1")
    }

    @Test(arguments: [307, 308])
    func keepingTheMethodKeepsTheBody(status: Int) throws {
        let original = try request("POST", body: Data("payload".utf8), headers: ["Content-Type": "text/plain"])
        let next = try #require(try original.redirected(by: response(status, location: "/landed"), redirectCount: 0))
        #expect(next.httpBody == Data("payload".utf8))
        #expect(next.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test func aStreamedBodyGetsAFreshStreamFromItsFirstByte() throws {
        let file = try TemporaryFile(named: "redirected.txt", contents: Data("from the file".utf8))
        let original = try NetCall(server: ServerConfig(host: "api.test"), endpoint: .post("/start", body: .file(file.url))).urlRequest()
        let stream = try #require(original.httpBodyStream as? BodyStream)
        _ = try readAll(stream, chunkSize: 4)
        let next = try #require(try original.redirected(by: response(307, location: "/landed"), redirectCount: 0))
        let fresh = try #require(next.httpBodyStream as? BodyStream)
        #expect(fresh !== stream)
        #expect(try readAll(fresh, chunkSize: 4) == Data("from the file".utf8))
    }

    @Test func aForeignStreamThatMustGoAgainFailsAsURLSessionDoes() throws {
        var original = try request("PUT")
        original.httpBodyStream = InputStream(data: Data("once".utf8))
        let redirect = try response(307, location: "/landed")
        let error = #expect(throws: URLError.self) { try original.redirected(by: redirect, redirectCount: 0) }
        #expect(error?.code == .requestBodyStreamExhausted)
        // A redirect that switches to GET drops the stream instead.
        original.httpMethod = "POST"
        let next = try #require(try original.redirected(by: response(303, location: "/landed"), redirectCount: 0))
        #expect(next.httpBodyStream == nil)
    }

    @Test(arguments: ["https://other.test/b", "http://api.test/b", "https://api.test:8443/b", "//elsewhere.test/c"])
    func leavingTheOriginDropsCredentials(_ location: String) throws {
        let auth = AuthTokenAction(for: ServerConfig(host: "api.test"), headerName: "X-Redirect-Key") { nil }
        let original = try request(headers: ["Authorization": "Bearer secret", "Proxy-Authorization": "p", "Cookie": "s=1", "X-Redirect-Key": "k", "Accept": "json"])
        let next = try #require(try original.redirected(by: response(302, location: location), redirectCount: 0, credentialHeaders: [auth.headerName]))
        for name in ["Authorization", "Proxy-Authorization", "Cookie", "X-Redirect-Key"] {
            #expect(next.value(forHTTPHeaderField: name) == nil, "\(name)")
        }
        #expect(next.value(forHTTPHeaderField: "Accept") == "json")
    }

    @Test(arguments: ["/b", "https://API.test:443/b", "b?x=1"])
    func stayingOnTheOriginKeepsCredentials(_ location: String) throws {
        let original = try request(headers: ["Authorization": "Bearer secret", "Cookie": "s=1"])
        let next = try #require(try original.redirected(by: response(307, location: location), redirectCount: 0))
        #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(next.value(forHTTPHeaderField: "Cookie") == "s=1")
    }

    @Test func aRelativeLocationResolvesAgainstTheResponsesURL() throws {
        let next = try #require(try request().redirected(by: response(302, location: "../up", url: "https://api.test/a/b/c"), redirectCount: 0))
        #expect(next.url?.absoluteString == "https://api.test/a/up")
    }

    @Test(arguments: [(200, "/x"), (300, "/x"), (304, "/x"), (305, "/x"), (302, nil), (302, ""), (301, "ftp://files.test/x"), (307, "mailto:a@b.test"), (302, "http://")] as [(Int, String?)])
    func aResponseThatIsNoRedirectToFollowIsTheAnswer(status: Int, location: String?) throws {
        #expect(try request().redirected(by: response(status, location: location), redirectCount: 0) == nil)
    }

    @Test func twentyRedirectsAreFollowedAndTheTwentyFirstFails() throws {
        let original = try request()
        let redirect = try response(302, location: "/hop")
        #expect(try original.redirected(by: redirect, redirectCount: 19) != nil)
        do {
            _ = try original.redirected(by: redirect, redirectCount: 20)
            Issue.record("the 21st redirect is refused")
        } catch {
            #expect(error.code == .httpTooManyRedirects)
            #expect(error.failingURL?.absoluteString == "https://api.test/hop")
        }
    }

    @Test(arguments: ["Authorization", "authorization", "COOKIE", "Proxy-Authorization"])
    func aCredentialFieldIsProtectedInAnyCase(_ name: String) throws {
        var request = URLRequest(url: try #require(URL(string: Self.start)))
        request.setValue("secret", forHTTPHeaderField: name)
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: []).count == 1)
    }

    @Test func theHeaderOfAnAuthActionIsProtected() throws {
        let auth = AuthTokenAction(for: ServerConfig(host: "api.test"), headerName: "X-Guard-Check-Key") { nil }
        let protected = AuthTokenAction.headers(setBy: [auth])
        var request = URLRequest(url: try #require(URL(string: Self.start)))
        request.setValue("k", forHTTPHeaderField: "x-guard-check-key")
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: protected).count == 1)
    }

    @Test func aRequestWithoutCredentialsHasNothingProtected() throws {
        var request = URLRequest(url: try #require(URL(string: Self.start)))
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: []).isEmpty)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        #expect(Redirect.protectedFieldNames(in: request, alsoProtected: []).isEmpty)
    }
}
