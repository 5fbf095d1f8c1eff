import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

/// An endpoint's own `Cookie` header against cookies `URLSession.shared` stored for the host.
@Suite struct ExplicitCookieIntegrationTests {
    @Test func anExplicitCookieHeaderIsSentAsWrittenWhenTheSessionStoredOneForTheHost() async throws {
        let server = try await ServerConfig.loopback()
        _ = try await NetCall(server: server, endpoint: .get("/cookie")).response()
        let echo = try await NetCall(server: server, endpoint: .get("/echo/cookie").header("Cookie", "mine=abc")).value(as: Echo.self)
        #if canImport(FoundationNetworking)
        // Corelibs' configuration sets stored cookies over the request's own Cookie header and
        // ignores `httpShouldHandleCookies = false` (tried); not yet worked around (Docs/Linux.md).
        withKnownIssue("Linux URLSession replaces an explicit Cookie header with stored cookies") {
            #expect(echo.header("Cookie") == "mine=abc")
        }
        #else
        #expect(echo.header("Cookie") == "mine=abc")
        #endif
    }

    @Test func withoutAnExplicitHeaderStoredCookiesAreSent() async throws {
        let server = try await ServerConfig.loopback()
        _ = try await NetCall(server: server, endpoint: .get("/cookie")).response()
        let echo = try await NetCall(server: server, endpoint: .get("/echo/cookie")).value(as: Echo.self)
        #expect(echo.header("Cookie")?.contains("session=secret-cookie-value") == true)
    }
}
