#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
import Testing
@_spi(Transport) @testable import Salvo

/// Which session a request with its own `Cookie` header is started on (Linux only: corelibs
/// replaces that header with stored cookies unless the session's `httpShouldSetCookies` is off).
@Suite struct URLSessionCookieHeaderTests {
    private let url = URL(string: "http://cookies.example/items")!

    /// An ephemeral session (its own cookie storage) holding one cookie for `url`'s host.
    private func sessionWithStoredCookie(_ configure: (URLSessionConfiguration) -> Void = { _ in }) throws -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configure(configuration)
        let cookie = try #require(HTTPCookie(properties: [.name: "sid", .value: "stored", .domain: "cookies.example", .path: "/"]))
        configuration.httpCookieStorage?.setCookie(cookie)
        return URLSession(configuration: configuration)
    }

    private func request(cookie: String?) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        return request
    }

    @Test func aCookieHeaderOverStoredCookiesGoesThroughACompanionThatLeavesItAlone() throws {
        let session = try sessionWithStoredCookie()
        let companion = session.keepingCookieHeader(of: request(cookie: "mine=abc"))

        #expect(companion !== session)
        #expect(companion.configuration.httpShouldSetCookies == false)
        #expect(companion.configuration.httpCookieStorage === session.configuration.httpCookieStorage)
        #expect(companion.delegateQueue === session.delegateQueue)
        #expect(session.configuration.httpShouldSetCookies, "the original session's configuration is untouched")
    }

    @Test func aSessionHasOneCompanion() throws {
        let session = try sessionWithStoredCookie()
        #expect(session.keepingCookieHeader(of: request(cookie: "a=1")) === session.keepingCookieHeader(of: request(cookie: "b=2")))
        let other = try sessionWithStoredCookie()
        #expect(other.keepingCookieHeader(of: request(cookie: "a=1")) !== session.keepingCookieHeader(of: request(cookie: "a=1")))
    }

    @Test func requestsCorelibsWouldNotRewriteStayOnTheSession() throws {
        let session = try sessionWithStoredCookie()
        #expect(session.keepingCookieHeader(of: request(cookie: nil)) === session)
        var elsewhere = request(cookie: "mine=abc")
        elsewhere.url = URL(string: "http://other.example/items")
        #expect(session.keepingCookieHeader(of: elsewhere) === session)

        let notSetting = try sessionWithStoredCookie { $0.httpShouldSetCookies = false }
        #expect(notSetting.keepingCookieHeader(of: request(cookie: "mine=abc")) === notSetting)
        let withoutStorage = try sessionWithStoredCookie { $0.httpCookieStorage = nil }
        #expect(withoutStorage.keepingCookieHeader(of: request(cookie: "mine=abc")) === withoutStorage)
    }
}
#endif
