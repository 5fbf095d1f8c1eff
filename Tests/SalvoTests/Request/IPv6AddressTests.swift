import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// IPv6 literals are RFC 4291 text; a host that only looks like one is refused with the likely fix.
@Suite struct IPv6AddressTests {
    @Test(arguments: [
        "::", "::1", "1::", "2001:db8::1", "2001:DB8:0:0:8:800:200C:417A", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::",
        "::2:3:4:5:6:7:8", "::ffff:192.0.2.1", "64:ff9b::192.0.2.33", "1:2:3:4:5:6:1.2.3.4", "fe80::", "::0.0.0.0",
    ])
    func validAddressesAreAccepted(_ text: String) {
        #expect(IPv6Address.isValid(text[...]))
    }

    @Test(arguments: [
        "", ":", ":::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "cafe:8080", "1::2::3", "12345::", "g::1", ":1::", "1::2:",
        "1:2:3:4:5:6:7:8::", "::1.2.3", "::1.2.3.256", "::01.2.3.4", "1.2.3.4::", "::1.2.3.4:5", "1:2:3:4:5:6:7:1.2.3.4",
        "fe80::1%eth0", "::1 ", " ::1",
    ])
    func malformedAddressesAreRefused(_ text: String) {
        #expect(!IPv6Address.isValid(text[...]))
    }

    private func hostProblem(_ host: String) -> RequestProblem? {
        guard case .failure(.invalidRequest(let problem)) = NetCall.build(ServerConfig(scheme: "http", host: host, port: 8080), .get("/x")) else { return nil }
        return problem
    }

    @Test(arguments: [
        ("[]", "nothing between the brackets"),
        ("cafe:8080", "ServerConfig.port to 8080"),
        ("localhost:3000", "ServerConfig.host to \"localhost\""),
        ("[::1]:8080", "ServerConfig.host to \"[::1]\""),
        ("1:2:3:4:5:6:7:8:9", "not a valid IPv6 address"),
        ("[fe80::1%eth0]", "zone ID"),
    ])
    func lookalikeHostsAreRefusedWithTheFix(_ host: String, _ hint: String) throws {
        let refusal = try #require(hostProblem(host))
        #expect(refusal.part == .host)
        #expect(refusal.reason.contains(hint))
    }

    @Test(arguments: [("::1", "http://[::1]:8080/x"), ("[::1]", "http://[::1]:8080/x"), ("[::ffff:127.0.0.1]", "http://[::ffff:127.0.0.1]:8080/x")])
    func validLiteralsGetBrackets(_ host: String, _ url: String) throws {
        let request = try NetCall(server: ServerConfig(scheme: "http", host: host, port: 8080), endpoint: .get("/x")).urlRequest()
        #expect(request.url?.absoluteString == url)
    }
}
