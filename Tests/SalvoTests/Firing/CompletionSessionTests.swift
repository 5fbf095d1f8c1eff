import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
// A plain import on purpose: a user's fake session is written without `@_spi(Transport)`.
import Salvo
import Testing

/// A fake session as a user writes it with a plain `import Salvo`: only the completion method.
/// Before issue 38 (D) it did not compile ("type 'CannedSession' does not conform to protocol
/// 'NetworkSession'"): the default that reports its answer was transport API.
@Suite struct CompletionSessionTests {
    struct CannedSession: NetworkSession {
        struct Task: NetworkSessionTask {
            func cancel() {}
        }

        let status: Int
        let body: String

        func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> any NetworkSessionTask {
            let response = request.url.flatMap { HTTPURLResponse(url: $0, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"]) }
            completion(Data(body.utf8), response, nil)
            return Task()
        }
    }

    struct User: Decodable {
        let name: String
    }

    @Test func aSessionWithOnlyTheCompletionMethodAnswersACall() async throws {
        let call = NetCall(server: ServerConfig(host: "api.example"), endpoint: .get("/me"), firingFunction: .session(CannedSession(status: 200, body: #"{"name":"Ada"}"#)))
        #expect(try await call.value(as: User.self).name == "Ada")
    }

    @Test func itsAnswerReachesAStreamAsTheHeadTheBodyAndTheEnd() async throws {
        let call = NetCall(server: ServerConfig(host: "api.example"), endpoint: .get("/log"), firingFunction: .session(CannedSession(status: 200, body: "a\nb\n")))
        var lines: [String] = []
        for try await line in call.lines() { lines.append(line) }
        #expect(lines == ["a", "b"])
    }

    @Test func anUnacceptableStatusFailsAsFromAServer() async {
        let call = NetCall(server: ServerConfig(host: "api.example"), endpoint: .get("/me"), firingFunction: .session(CannedSession(status: 503, body: "{}")))
        do {
            _ = try await call.response()
            Issue.record("a 503 was accepted")
        } catch {
            #expect(error.statusCode == 503)
        }
    }
}
