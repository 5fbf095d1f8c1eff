import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Logging and cURL output for real requests: readable, and free of secrets.
@Suite struct LoggingActionIntegrationTests {
    @Test(arguments: TransportUnderTest.all)
    func logsOfSecretHeadersCookiesAndQueryKeysShowNoSecret(over transport: TransportUnderTest) async throws {
        let transcript = Transcript()
        var server = try await ServerConfig.loopback(defaultHeaders: ["X-Api-Key": "key-secret"])
        server.actions = [
            AuthTokenAction(for: server) { "bearer-secret" },
            LoggingAction(includesHeaders: true, includesBodies: true,
                          redaction: .default.adding(headers: ["X-Api-Key"], queryKeys: ["access_token"]),
                          sink: transcript.append),
        ]
        let echo = Endpoint.get("/echo", query: ["access_token": "query-secret", "page": "1"])
            .header("Cookie", "session=cookie-secret")
            .header("Proxy-Authorization", "Basic proxy-secret")
            .requiringAuthentication()
        let configured = server
        _ = try await withTimeout { try await NetCall(server: configured, endpoint: echo, firingFunction: transport.firing).response() }
        _ = try await withTimeout { try await NetCall(server: configured, endpoint: .get("/cookie"), firingFunction: transport.firing).response() }
        let text = transcript.text
        #expect(text.contains("← 200 GET http://127.0.0.1:"))
        #expect(text.contains("Set-Cookie: <redacted>"))
        // The echo body repeats every request header back; it must be redacted too.
        for secret in ["key-secret", "bearer-secret", "query-secret", "cookie-secret", "proxy-secret", "secret-cookie-value"] {
            #expect(!text.contains(secret), "\(secret) leaked into:\n\(text)")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theCurlCommandReplaysTheRequestAndRedactsByDefault(over transport: TransportUnderTest) async throws {
        let body = #"{"note":"it's \"quoted\" $HOME `id`"}"#
        let call = NetCall(server: try await .loopback(), endpoint: Endpoint.post("/echo/curl", body: .text(body, contentType: "application/json"))
            .header("Authorization", "Bearer curl-secret").header("X-Quote", #"O'Brien "x""#), firingFunction: transport.firing)
        #expect(try !call.curlCommand().contains("curl-secret"))
        let output = try runShell(try call.curlCommand(redaction: .none) + " --silent")
        let echo = try JSONDecoder().decode(Echo.self, from: Data(output.utf8))
        #expect(echo.method == "POST")
        #expect(echo.body == Data(body.utf8))
        #expect(echo.header("X-Quote") == #"O'Brien "x""#)
        #expect(echo.header("Authorization") == "Bearer curl-secret")
    }

    private func runShell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: TransportUnderTest.all, [
        Endpoint.post("/echo/login", body: .json(["user": "ann", "password": "hunter22-json"])),
        Endpoint.post("/echo/login", body: .form(["user": "ann", "password": "hunter22-form"])),
    ])
    func aPasswordSentInABodyAndEchoedBackIsInNoLogLineByDefault(over transport: TransportUnderTest, _ endpoint: Endpoint) async throws {
        let transcript = Transcript()
        var server = try await ServerConfig.loopback()
        server.actions = [LoggingAction(includesHeaders: true, includesBodies: true, sink: transcript.append)]
        let configured = server
        let response = try await withTimeout { try await NetCall(server: configured, endpoint: endpoint, firingFunction: transport.firing).response() }
        #expect(String(decoding: response.data, as: UTF8.self).contains("hunter22"), "the server must echo the password for this test to mean anything")
        let text = transcript.text
        #expect(text.contains("← 200 POST"))
        #expect(text.contains("<redacted>"))
        #expect(!text.contains("hunter22"), "leaked into:\n\(text)")
    }

    @Test(arguments: TransportUnderTest.all)
    func theCurlCommandHidesSecretQueryKeysByDefault(over transport: TransportUnderTest) async throws {
        let call = NetCall(server: try await .loopback(), endpoint: .get("/echo", query: ["access_token": "query-secret", "page": "1"]), firingFunction: transport.firing)
        let command = try call.curlCommand()
        #expect(!command.contains("query-secret"))
        #expect(command.contains("access_token=%3Credacted%3E"))
    }
}
