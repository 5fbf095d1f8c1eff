import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

@Suite struct RedirectGuardTests {
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
