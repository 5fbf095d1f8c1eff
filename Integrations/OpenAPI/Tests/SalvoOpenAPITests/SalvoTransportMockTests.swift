import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import Salvo
import SalvoOpenAPI
import Testing

/// The generated client over ``SalvoTransport`` with mock firing: routes by path and by
/// operation, documented and undocumented statuses, the server's actions, errors and streams.
@Suite struct SalvoTransportMockTests {
    /// An action that adds a header, as an auth action would.
    struct Stamp: NetworkAction {
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            var request = request
            request.setValue("stamped", forHTTPHeaderField: "X-Stamp")
            return request
        }
    }

    /// The requests a mock route received, in order; its lock makes it safe to share with the
    /// mock's answers, which run on the firing's queue.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [MockRequest] = []

        func append(_ request: MockRequest) { lock.withLock { requests.append(request) } }
        var all: [MockRequest] { lock.withLock { requests } }
    }

    @Test func anOperationRouteAnswersWhateverThePath() async throws {
        let echo = Components.Schemas.Echo(args: .init(additionalProperties: ["greeting": "hi"]), headers: .init(), url: "mock")
        let client = try mockClient(MockRoute.operation("getEcho", .json(echo)))
        let answer = try await client.getEcho(query: .init(greeting: "hi")).ok.body.json
        #expect(answer.args.additionalProperties["greeting"] == "hi")
    }

    @Test func anOperationRouteDoesNotAnswerAnotherOperation() async throws {
        let client = try mockClient(MockRoute.operation("getHeaders", .json(["headers": [String: String]()])))
        do {
            _ = try await client.getEcho()
            Issue.record("getEcho was answered by getHeaders' route")
        } catch {
            let networkError = try #require(underlyingNetworkError(error))
            #expect("\(networkError)".contains("getEcho"))
        }
    }

    @Test func aPathRouteCanRequireTheOperation() async throws {
        let routes = [
            MockRoute.get("/headers", .json(["headers": ["Which": "operation"]])).matching(.operation("getHeaders")),
            MockRoute.get("/headers", .json(["headers": ["Which": "path"]])),
        ]
        let byOperation = try await mockClient(routes).getHeaders().ok.body.json
        // The same request fired as a plain call is no operation.
        let server = ServerConfig(host: "api.example.com", firingFunction: .mock(MockRoutes(routes)))
        let byPath = try await NetCall(server: server, endpoint: .get("/headers")).value(as: Components.Schemas.Headers.self)
        #expect(byOperation.headers.additionalProperties["Which"] == "operation")
        #expect(byPath.headers.additionalProperties["Which"] == "path")
    }

    @Test func theRequestCarriesPathQueryHeadersAndBodyAsGenerated() async throws {
        let seen = Received()
        let echo = Components.Schemas.PostEcho(data: "", headers: .init())
        let routes = MockRoute.operation("postGreeting") { request in
            seen.append(request)
            return .json(echo)
        } + [MockRoute(.get, "/status/:code") { request in
            seen.append(request)
            return .status(204)
        }]
        let client = try mockClient(routes, actions: [Stamp()])
        _ = try await client.postGreeting(body: .json(.init(message: "a b&c", count: 2))).ok
        _ = try await client.getStatus(path: .init(code: 204)).noContent
        let requests = seen.all
        try #require(requests.count == 2)
        let greeting = try requests[0].decodeBody(as: Components.Schemas.Greeting.self)
        #expect(greeting == .init(message: "a b&c", count: 2))
        #expect(requests[0].method == .post)
        #expect(requests[0].header("Content-Type") == "application/json; charset=utf-8")
        #expect(requests[0].header("X-Stamp") == "stamped")
        #expect(requests[0].header("Salvo-Operation") == nil)
        #expect(!requests[0].request.allHTTPHeaderFields.map { $0.values.contains("postGreeting") }!)
        #expect(requests[1].parameters["code"] == "204")
        #expect(requests[1].request.url?.absoluteString == "https://api.example.com/status/204")
    }

    @Test func aQueryWithReservedCharactersArrivesDecodedOnce() async throws {
        let client = try mockClient(MockRoute.operation("getEcho") { request in
            .json(Components.Schemas.Echo(args: .init(additionalProperties: request.query), headers: .init(), url: ""))
        })
        let echo = try await client.getEcho(query: .init(greeting: "50% off & more=yes")).ok.body.json
        #expect(echo.args.additionalProperties["greeting"] == "50% off & more=yes")
    }

    @Test func aDocumentedErrorStatusIsItsCaseNotAnError() async throws {
        let client = try mockClient([.get("/status/:code", .status(404, body: Data("gone".utf8)))])
        let output = try await client.getStatus(path: .init(code: 404))
        #expect(throws: Never.self) { try output.notFound }
    }

    @Test func anUndocumentedStatusKeepsItsCodeAndBody() async throws {
        let client = try mockClient([.get("/headers", .text("teapot", status: 418))])
        guard case .undocumented(let status, let payload) = try await client.getHeaders() else {
            Issue.record("418 should be undocumented")
            return
        }
        #expect(status == 418)
        let body = try await String(collecting: try #require(payload.body), upTo: 100)
        #expect(body == "teapot")
    }

    @Test func aFailureWithoutAResponseIsSalvosNetworkError() async throws {
        let client = try mockClient([.get("/headers", .failure(.notConnectedToInternet))])
        do {
            _ = try await client.getHeaders()
            Issue.record("expected an error")
        } catch {
            let networkError = try #require(underlyingNetworkError(error))
            guard case .transport(let urlError) = networkError else {
                Issue.record("expected .transport, got \(networkError)")
                return
            }
            #expect(urlError.code == .notConnectedToInternet)
            #expect((error as? ClientError)?.operationID == "getHeaders")
        }
    }

    @Test func serverSentEventsDecodeWithOpenAPIRuntimeOverSalvosStream() async throws {
        let events = (1...3).map { ServerSentEvent(data: #"{"n": \#($0)}"#, id: "\($0)") }
        let client = try mockClient(MockRoute.operation("streamTicks", .events(events, every: 0)))
        let body = try await client.streamTicks(path: .init(key: "k"), query: .init(count: 3)).ok.body.textEventStream
        var received: [Int] = []
        for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Tick.self) {
            received.append(try #require(event.data).n)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func aStreamedOperationHandsOverTheBodyBeforeItEnds() async throws {
        // The second chunk comes 30 s after the first: a transport that read the body whole would
        // hand nothing over before then.
        let chunks = [Data("first".utf8), Data("second".utf8)]
        let route = MockRoute.operation("streamBytes", .chunks(chunks, every: 30, headers: ["Content-Type": "application/octet-stream"]))
        let started = ContinuousClock.now
        let body = try await mockClient(route).streamBytes(path: .init(n: 11)).ok.body.binary
        var iterator = body.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first.map { String(decoding: $0, as: UTF8.self) } == "first")
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(body.length == .unknown)
    }

    @Test func theDefaultStreamingPolicyStreamsEventsLinesAndBinaryOnly() {
        let policy = ResponseStreaming.eventsLinesAndBinary
        #expect(policy.streams(operationID: "a", accept: "text/event-stream"))
        #expect(policy.streams(operationID: "a", accept: "application/octet-stream, application/json;q=0.5"))
        #expect(policy.streams(operationID: "a", accept: "application/json, Text/Event-Stream ;q=0.9"))
        #expect(!policy.streams(operationID: "a", accept: "application/json"))
        #expect(!policy.streams(operationID: "a", accept: "application/json; profile=\"text/event-stream\""))
        #expect(!policy.streams(operationID: "a", accept: nil))
        #expect(ResponseStreaming.operations(["b"]).streams(operationID: "b", accept: nil))
    }
}
