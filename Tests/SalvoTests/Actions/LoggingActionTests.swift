import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct LoggingActionTests {
    private let server = ServerConfig(scheme: "https", host: "api.test")

    private func log(
        _ endpoint: Endpoint,
        reply: ScriptedSession.Reply,
        logging: (Transcript) -> LoggingAction = { LoggingAction(sink: $0.append) }
    ) async -> Transcript {
        let transcript = Transcript()
        let session = ScriptedSession(reply)
        let call = NetCall(server: server, endpoint: endpoint, actions: [logging(transcript)], callbackQueue: .immediate, firingFunction: session.firingFunction)
        _ = await result(of: call)
        return transcript
    }

    @Test func writesOneLineForTheRequestAndOneForTheResponse() async throws {
        let transcript = await log(.get("/users", query: ["page": "2"]), reply: .status(200, body: Data("[1,2,3]".utf8)))
        #expect(transcript.all.count == 2)
        #expect(transcript.all.first == "→ GET https://api.test/users?page=2")
        let response = try #require(transcript.all.last)
        #expect(response.hasPrefix("← 200 GET https://api.test/users?page=2 ("))
        #expect(response.hasSuffix(" ms, 7 B)"))
        #expect(!response.contains("\n"))
    }

    @Test func aRequestBodyShowsItsSize() async {
        let transcript = await log(.post("/notes", body: .text("hello")), reply: .status(201))
        #expect(transcript.all.first == "→ POST https://api.test/notes (5 B)")
    }

    @Test func aTransportFailureSaysWhy() async throws {
        let transcript = await log(.get("/x"), reply: .failure(.timedOut))
        let line = try #require(transcript.all.last)
        #expect(line.hasPrefix("← failed GET https://api.test/x ("))
        #expect(line.contains("timed out"))
    }

    @Test func secretHeadersAndQueryKeysAreRedacted() async {
        let endpoint = Endpoint.get("/me", query: ["api_key": "q-secret", "page": "1"])
            .header("Authorization", "Bearer h-secret")
            .header("Cookie", "session=c-secret")
            .header("Proxy-Authorization", "Basic p-secret")
            .header("X-Api-Key", "x-secret")
        let reply = ScriptedSession.Reply.status(200, headers: ["Set-Cookie": "session=s-secret", "X-Request-Id": "r-1"], body: Data("{}".utf8))
        let transcript = await log(endpoint, reply: reply) {
            LoggingAction(includesHeaders: true, redaction: .default.adding(headers: ["X-Api-Key"], queryKeys: ["api_key"]), sink: $0.append)
        }
        let text = transcript.text
        for secret in ["q-secret", "h-secret", "c-secret", "p-secret", "x-secret", "s-secret"] {
            #expect(!text.contains(secret), "\(secret) leaked into:\n\(text)")
        }
        #expect(text.contains("    Authorization: <redacted>"))
        #expect(text.contains("    X-Request-Id: r-1"))
        #expect(text.contains("page=1"))
    }

    @Test func jsonBodiesArePrettyPrintedWithSecretFieldsHidden() async throws {
        let body = #"{"user":{"name":"Ann","password":"pw-secret"},"items":[1,2]}"#
        let transcript = await log(.get("/me"), reply: .status(200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))) {
            LoggingAction(includesBodies: true, redaction: .default.adding(queryKeys: ["password"]), sink: $0.append)
        }
        let response = try #require(transcript.all.last)
        #expect(!response.contains("pw-secret"))
        #expect(response.contains(#""password" : "<redacted>""#))
        #expect(response.contains("\n    {\n"))
    }

    @Test func aSecretTheServerEchoesBackIsRedactedInTheBody() async throws {
        let endpoint = Endpoint.get("/echo", query: ["sig": "sig-secret"]).header("Authorization", "Bearer echo-secret")
        let body = #"{"headers":[["Authorization","Bearer echo-secret"]],"query":"sig=sig-secret"}"#
        let transcript = await log(endpoint, reply: .status(200, body: Data(body.utf8))) {
            LoggingAction(includesBodies: true, redaction: .default.adding(queryKeys: ["sig"]), sink: $0.append)
        }
        #expect(!transcript.text.contains("echo-secret"))
        #expect(!transcript.text.contains("sig-secret"))
    }

    @Test func longBodiesAreCutAtTheLimit() async throws {
        let transcript = await log(.get("/text"), reply: .status(200, body: Data(String(repeating: "a", count: 500).utf8))) {
            LoggingAction(includesBodies: true, bodyLimit: 100, sink: $0.append)
        }
        let response = try #require(transcript.all.last)
        #expect(response.contains(String(repeating: "a", count: 100) + "… (400 more characters)"))
        #expect(!response.contains(String(repeating: "a", count: 101)))
    }

    @Test func binaryBodiesAreSummarised() async throws {
        let message = LoggingAction(includesBodies: true).responseMessage(AttemptOutcome(
            request: URLRequest(url: URL(string: "https://api.test/b")!),
            urlResponse: HTTPURLResponse(url: URL(string: "https://api.test/b")!, statusCode: 200, httpVersion: nil, headerFields: nil),
            data: Data([0xFF, 0xFE, 0x00, 0x81])
        ))
        #expect(message.contains("<4 bytes of binary data>"))
    }

    @Test func asTheInnermostActionItLogsEveryAttemptAndTheRequestAsSent() async throws {
        let transcript = Transcript()
        let session = ScriptedSession(.status(503), .status(200))
        var server = server
        server.actions = [
            RetryAction(baseDelay: 0.001),
            AuthTokenAction(for: server) { "t-secret" },
            LoggingAction(includesHeaders: true, sink: transcript.append),
        ]
        let call = NetCall(server: server, endpoint: Endpoint.get("/me").requiringAuthentication(), callbackQueue: .immediate, firingFunction: session.firingFunction)
        _ = try await withTimeout { try await call.response() }
        #expect(transcript.all.map { $0.prefix(5) } == ["→ GET", "← 503", "→ GET", "← 200"])
        #expect(transcript.text.contains("Authorization: <redacted>"))
        #expect(!transcript.text.contains("t-secret"))
    }
}
