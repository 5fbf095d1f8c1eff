import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// An endpoint's explicit `Cookie` header reaches the server as written, also once the session has
/// stored cookies for the host (Linux URLSession replaced it; Docs/Linux.md).
///
/// Each test fires through its own ephemeral session, whose cookie storage is its own: cookies
/// stored in `HTTPCookieStorage.shared` for 127.0.0.1 would reach every other suite's requests.
@Suite struct CookieHeaderIntegrationTests {
    private func fire(_ endpoint: Endpoint, through session: URLSession) async throws -> NetworkResponse {
        var call = NetCall(server: try await .loopback(), endpoint: endpoint)
        call.firingFunction = .session(session)
        let fired = call
        return try await withTimeout { try await fired.response() }
    }

    private func echoedCookie(_ endpoint: Endpoint = .get("/echo"), through session: URLSession) async throws -> String? {
        let response = try await fire(endpoint, through: session)
        return try JSONDecoder().decode(Echo.self, from: response.data).header("Cookie")
    }

    @Test func anExplicitCookieHeaderWinsOverStoredCookies() async throws {
        let session = URLSession(configuration: .ephemeral)
        _ = try await fire(.get("/cookie"), through: session)
        #expect(try await echoedCookie(through: session) == "session=secret-cookie-value")

        #expect(try await echoedCookie(.get("/echo").header("Cookie", "mine=abc"), through: session) == "mine=abc")
        // Stored cookies still go out on requests that set none.
        #expect(try await echoedCookie(through: session) == "session=secret-cookie-value")
    }

    @Test func cookiesSetInReplyToAnExplicitCookieHeaderAreStored() async throws {
        let session = URLSession(configuration: .ephemeral)
        _ = try await fire(.get("/cookie"), through: session)
        let setting = Endpoint.get("/headers", query: ["Set-Cookie": "other=v2; Path=/"]).header("Cookie", "mine=abc")
        _ = try await fire(setting, through: session)

        let sent = try #require(try await echoedCookie(through: session))
        #expect(Set(sent.components(separatedBy: "; ")) == ["session=secret-cookie-value", "other=v2"])
    }

    /// The session's delegate still decides redirects of a request that keeps its own `Cookie` header.
    @Test func theSessionDelegateStillDecidesRedirects() async throws {
        let session = URLSession(configuration: .ephemeral, delegate: RedirectRefuser(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        _ = try await fire(.get("/cookie"), through: session)
        let redirected = Endpoint.get("/redirect", query: ["to": "/echo/landed"]).header("Cookie", "mine=abc")

        let failure = await #expect(throws: NetworkError.self) { try await fire(redirected, through: session) }

        guard case .serverStatus(let status)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(status.statusCode == 302)
    }
}

/// A session delegate that refuses every redirect, so the 3xx itself is the response.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
