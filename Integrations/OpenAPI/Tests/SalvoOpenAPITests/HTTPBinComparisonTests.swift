import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import Salvo
import SalvoOpenAPI
import Testing

/// The generated client against httpbin, each operation through ``SalvoTransport`` and through
/// swift-openapi-urlsession's `URLSessionTransport` in the same test, with the same results.
@Suite(.requiresHTTPBin) struct HTTPBinComparisonTests {
    private func clients() async throws -> Clients {
        try Clients(baseURL: try await HTTPBinServer.baseURL())
    }

    @Test func aQueryEchoesTheSameThroughBothTransports() async throws {
        let results = try await clients().both { client in
            try await client.getEcho(query: .init(greeting: "hello world & 50% more")).ok.body.json.args
        }
        #expect(results.salvo.additionalProperties["greeting"] == "hello world & 50% more")
        #expect(results.salvo == results.urlSession)
    }

    @Test func aJSONBodyEchoesTheSameThroughBothTransports() async throws {
        let greeting = Components.Schemas.Greeting(message: "héllo", count: 3)
        let results = try await clients().both { client in
            try await client.postGreeting(body: .json(greeting)).ok.body.json.json
        }
        #expect(results.salvo == greeting)
        #expect(results.salvo == results.urlSession)
    }

    @Test func aBinaryBodyArrivesTheSameThroughBothTransports() async throws {
        let results = try await clients().both { client in
            try await client.uploadBytes(body: .binary(HTTPBody("raw bytes \u{1}"))).ok.body.json.data
        }
        #expect(results.salvo == "raw bytes \u{1}")
        #expect(results.salvo == results.urlSession)
    }

    @Test func headersArriveTheSameThroughBothTransportsAndNoneNamesTheOperation() async throws {
        let results = try await clients().both { client in
            try await client.getHeaders(headers: .init(xGreeting: "hi-there")).ok.body.json.headers.additionalProperties
        }
        #expect(results.salvo["X-Greeting"] == "hi-there")
        #expect(results.salvo["X-Greeting"] == results.urlSession["X-Greeting"])
        // The operation's ID is mock routes' business, never the server's.
        #expect(!results.salvo.values.contains { $0.contains("getHeaders") })
        #expect(Set(results.salvo.keys).subtracting(results.urlSession.keys).isEmpty)
    }

    @Test(arguments: [200, 204, 404, 418, 503])
    func aStatusDecodesAsTheSameCaseThroughBothTransports(code: Int) async throws {
        let results = try await clients().both { client in
            switch try await client.getStatus(path: .init(code: code)) {
            case .ok: "ok"
            case .noContent: "noContent"
            case .notFound: "notFound"
            case .default(let status, _): "default \(status)"
            }
        }
        let expected = [200: "ok", 204: "noContent", 404: "notFound"][code] ?? "default \(code)"
        #expect(results.salvo == expected)
        #expect(results.salvo == results.urlSession)
    }

    @Test func aStreamedBodyIsTheSameThroughBothTransports() async throws {
        let results = try await clients().both { client in
            let body = try await client.streamBytes(path: .init(n: 50_000), query: .init(seed: 7)).ok.body.binary
            return try await Data(collecting: body, upTo: 1 << 20)
        }
        #expect(results.salvo.count == 50_000)
        #expect(results.salvo == results.urlSession)
    }

    @Test func theServersActionsApplyToEveryOperation() async throws {
        let auth = AuthTokenAction { "secret-token" }
        let clients = try Clients(baseURL: try await HTTPBinServer.baseURL(), actions: [auth], requiresAuthentication: true)
        let headers = try await clients.salvo.getHeaders().ok.body.json.headers.additionalProperties
        #expect(headers["Authorization"] == "Bearer secret-token")
    }

    @Test func aRefusedConnectionIsSalvosTransportErrorInClientError() async throws {
        let closed = try Clients(baseURL: try #require(URL(string: "http://127.0.0.1:9")))
        do {
            _ = try await closed.salvo.getHeaders()
            Issue.record("expected an error")
        } catch {
            let networkError = try #require(underlyingNetworkError(error))
            guard case .transport = networkError else {
                Issue.record("expected .transport, got \(networkError)")
                return
            }
        }
    }
}
