import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

@Suite struct RedirectGuardTests {
    private func redirected(to target: String, from source: String = "https://api.test/a") -> URLRequest {
        var request = URLRequest(url: URL(string: target)!)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.setValue("session=1", forHTTPHeaderField: "Cookie")
        request.setValue("k", forHTTPHeaderField: "X-Guarded-Key")
        request.setValue("json", forHTTPHeaderField: "Accept")
        return RedirectGuard.stripping(request, redirectedFrom: URL(string: source))
    }

    @Test func aRedirectOnTheSameOriginKeepsEveryHeader() {
        let request = redirected(to: "https://API.test:443/b")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(request.value(forHTTPHeaderField: "Cookie") == "session=1")
    }

    @Test(arguments: ["https://other.test/b", "http://api.test/b", "https://api.test:8443/b"])
    func aRedirectToAnotherOriginDropsCredentials(_ target: String) {
        _ = AuthTokenAction(for: ServerConfig(host: "api.test"), headerName: "X-Guarded-Key") { nil }
        let request = redirected(to: target)
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(request.value(forHTTPHeaderField: "X-Guarded-Key") == nil)
        #expect(request.value(forHTTPHeaderField: "Accept") == "json")
    }

    @Test(arguments: ["Authorization", "authorization", "COOKIE", "Proxy-Authorization"])
    func aRequestWithCredentialsIsGuarded(_ name: String) throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.setValue("secret", forHTTPHeaderField: name)
        #expect(RedirectGuard.isNeeded(for: request))
    }

    @Test func aHeaderAnAuthActionUsesIsGuarded() throws {
        _ = AuthTokenAction(for: ServerConfig(host: "api.test"), headerName: "X-Guard-Check-Key") { nil }
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.setValue("k", forHTTPHeaderField: "x-guard-check-key")
        #expect(RedirectGuard.isNeeded(for: request))
    }

    @Test func aRequestWithoutCredentialsNeedsNoGuard() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        #expect(!RedirectGuard.isNeeded(for: request))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        #expect(!RedirectGuard.isNeeded(for: request))
    }
}
