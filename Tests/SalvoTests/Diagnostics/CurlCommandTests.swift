import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct CurlCommandTests {
    private let server = ServerConfig(scheme: "https", host: "api.test")

    /// The arguments a POSIX shell passes to `curl` for `command`, via a stand-in `curl` function.
    private func shellArguments(_ command: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"curl() { for a in "$@"; do printf '%s\0' "$a"; done; }; "# + command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func aPlainGETIsJustTheURL() throws {
        let call = NetCall(server: server, endpoint: .get("/users", query: ["page": "2"]))
        #expect(try call.curlCommand() == "curl 'https://api.test/users?page=2'")
    }

    @Test func methodHeadersAndBodyAreIncludedAndSurviveTheShell() throws {
        let body = #"{"text":"it's \"quoted\" $HOME `date` \\ done"}"#
        let endpoint = Endpoint.post("/notes", body: .text(body, contentType: "application/json"))
            .header("X-Note", #"O'Brien says "hi""#)
        let command = try NetCall(server: server, endpoint: endpoint).curlCommand()
        #expect(try shellArguments(command) == [
            "-X", "POST", "https://api.test/notes",
            "-H", "Content-Type: application/json",
            "-H", #"X-Note: O'Brien says "hi""#,
            "--data-raw", body,
        ])
    }

    @Test func secretsAreRedactedByDefault() throws {
        var request = URLRequest(url: URL(string: "https://api.test/me")!)
        request.setValue("Bearer h-secret", forHTTPHeaderField: "Authorization")
        request.setValue("session=c-secret", forHTTPHeaderField: "Cookie")
        request.setValue("Basic p-secret", forHTTPHeaderField: "Proxy-Authorization")
        let command = request.curlCommand()
        for secret in ["h-secret", "c-secret", "p-secret"] { #expect(!command.contains(secret)) }
        #expect(command.contains("'Authorization: <redacted>'"))
    }

    @Test func redactionCanBeTurnedOffExplicitly() throws {
        var request = URLRequest(url: URL(string: "https://api.test/me")!)
        request.setValue("Bearer h-secret", forHTTPHeaderField: "Authorization")
        #expect(request.curlCommand(redaction: .none).contains("'Authorization: Bearer h-secret'"))
    }

    @Test func customSecretHeadersQueryKeysAndBodyFieldsAreRedacted() throws {
        let endpoint = Endpoint.post("/login", body: .form(["user": "ann", "password": "pw-secret"]))
            .setting(query: "api_key", to: "q-secret")
            .header("X-Api-Key", "x-secret")
        let command = try NetCall(server: server, endpoint: endpoint)
            .curlCommand(redaction: .default.adding(headers: ["X-Api-Key"], queryKeys: ["api_key", "password"]))
        for secret in ["pw-secret", "q-secret", "x-secret"] { #expect(!command.contains(secret), "\(command)") }
        #expect(command.contains("user=ann&password=<redacted>"))
    }

    @Test func aSecretHeaderValueRepeatedInTheBodyIsRedactedThere() throws {
        let endpoint = Endpoint.post("/link", body: .json(["token": "tok-secret-1"])).header("Authorization", "Bearer tok-secret-1")
        let command = try NetCall(server: server, endpoint: endpoint).curlCommand()
        #expect(!command.contains("tok-secret-1"))
        #expect(command.contains(#"--data-raw '{"token":"<redacted>"}'"#))
    }

    @Test func headUsesTheHeadFlag() throws {
        #expect(try NetCall(server: server, endpoint: .head("/x")).curlCommand() == "curl --head 'https://api.test/x'")
    }

    @Test func aBinaryBodyIsPipedInThroughBase64() throws {
        let bytes = Data([0x00, 0xFF, 0x27, 0x0A])
        let command = try NetCall(server: server, endpoint: .put("/blob", body: .data(bytes))).curlCommand()
        #expect(command.hasPrefix("printf '%s' 'AP8nCg==' | base64 --decode | curl -X PUT"))
        #expect(command.hasSuffix("--data-binary @-"))
    }

    @Test func aCallThatCannotBuildARequestThrows() {
        #expect(throws: NetworkError.self) { try NetCall(server: ServerConfig(host: ""), endpoint: .get("/x")).curlCommand() }
    }
}
