import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct ServerOriginTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let scheme: String
        let host: String
        let port: Int?
        let expected: String
        var testDescription: String { "\(scheme)://\(host) → \(expected)" }
    }

    @Test(arguments: [
        Case(scheme: "HTTPS", host: "API.example.com", port: nil, expected: "https://API.example.com/x"),
        Case(scheme: "http", host: "[::1]", port: 8080, expected: "http://[::1]:8080/x"),
        Case(scheme: "http", host: "fe80::1", port: nil, expected: "http://[fe80::1]/x"),
        Case(scheme: "http", host: "[localhost]", port: 3000, expected: "http://localhost:3000/x"),
        Case(scheme: "Http", host: "my_host-1.example", port: 1, expected: "http://my_host-1.example:1/x"),
    ])
    func originIsSchemeHostAndPort(_ testCase: Case) throws {
        let server = ServerConfig(scheme: testCase.scheme, host: testCase.host, port: testCase.port)
        #expect(try server.url(for: .get("/x")).absoluteString == testCase.expected)
    }

    @Test(arguments: ["ftp", "FTP", "ws", "file", "git+ssh"])
    func aSchemeOtherThanHTTPIsRefusedBeforeTheSessionSeesIt(_ scheme: String) async {
        // Production firing: a scheme that got past the call would come back as a transport error.
        let call = NetCall(server: ServerConfig(scheme: scheme, host: "127.0.0.1", port: 9), endpoint: .get("/x"), firingFunction: .production)
        await #expect {
            _ = try await call.response()
        } throws: { error in
            guard case .invalidRequest(let problem) = error as? NetworkError else { return false }
            return problem.part == .scheme && problem.reason.contains("\"\(scheme)\" is not supported")
        }
    }

    @Test(arguments: ["[\u{301}::1]", "[::1\u{301}]", "exa\u{301}mple.com", "[::g]", "[a b]", "1::2::x"])
    func hostsWithAnythingButASCIIHostCharactersAreRejected(_ host: String) {
        #expect(throws: NetworkError.self) { try ServerConfig(host: host).url(for: .get("/x")) }
    }
}
