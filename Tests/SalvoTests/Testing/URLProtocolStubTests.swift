import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// The stub goes through a real `URLSession` (its URLProtocol machinery), never the network:
/// the server is 127.0.0.1 port 9 (discard), which would refuse or drop a real connection.
@Suite struct URLProtocolStubTests {
    struct User: Codable, Equatable, Sendable {
        let id: Int
    }

    static let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: 9)

    static func call(_ endpoint: Endpoint, _ stub: URLProtocolStub) -> NetCall {
        NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: stub.firingFunction)
    }

    @Test func answersThroughARealURLSession() async throws {
        let stub = URLProtocolStub(answering: .json(User(id: 3), headers: ["X-Stubbed": "1"]))
        let response = try await Self.call(.get("/users/3"), stub).response()
        #expect(try JSONDecoder().decode(User.self, from: response.data) == User(id: 3))
        #expect(response.headers["X-Stubbed"] == "1")
        #expect(response.urlResponse is HTTPURLResponse)
        #expect(stub.requests.map { $0.url?.path } == ["/users/3"])
    }

    /// corelibs' URLProtocol client keeps only the last `didLoad` for a completion-handler task,
    /// so the stub hands its client the body whole, however the mock answer arrives.
    @Test func aStreamedAnswerReachesTheStubsSessionWhole() async throws {
        let stub = URLProtocolStub(answering: .chunks([Data("one ".utf8), Data("two ".utf8), Data("three".utf8)], every: 0.02))
        #expect(try await Self.call(.get("/feed"), stub).response().data == Data("one two three".utf8))
    }

    @Test func requestBodiesAndHeadersReachTheStub() async throws {
        let stub = URLProtocolStub(answering: .status(201))
        _ = try await Self.call(.post("/users", body: .json(User(id: 8))).header("X-Trace", "abc"), stub).response()
        let seen = try #require(stub.requests.first)
        #expect(seen.httpMethod == "POST")
        #expect(seen.value(forHTTPHeaderField: "X-Trace") == "abc")
        #expect(try JSONDecoder().decode(User.self, from: try #require(seen.httpBody)) == User(id: 8))
    }

    @Test func statusAndTransportErrorsMapLikeProduction() async {
        let failing = URLProtocolStub(answering: .status(503, body: Data("down".utf8)))
        #expect(await Self.call(.get("/x"), failing).fireAndRecord()
                == [.task, .response, .httpResponse(status: 503), .errorData(Data("down".utf8)), .serverError(status: 503)])
        let offline = URLProtocolStub(answering: .failure(.notConnectedToInternet))
        #expect(await Self.call(.get("/x"), offline).fireAndRecord()
                == [.task, .noResponse, .error(.transport(URLError(.notConnectedToInternet))), .errorData(nil)])
    }

    @Test func parallelStubsNeverSeeEachOthersAnswersOrRequests() async throws {
        let stubs = (0..<8).map { index in URLProtocolStub(answering: .text("stub \(index)").delayed(by: 0.01 * Double(8 - index))) }
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, stub) in stubs.enumerated() {
                group.addTask { (index, String(decoding: try await Self.call(.get("/n/\(index)"), stub).response().data, as: UTF8.self)) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for (index, stub) in stubs.enumerated() {
            #expect(answers[index] == "stub \(index)")
            #expect(stub.requests.map { $0.url?.path } == ["/n/\(index)"])
        }
    }

    @Test func routesWorkAndAnUnmatchedRequestFailsClearly() async throws {
        let stub = URLProtocolStub(routes: MockRoutes([MockRoute(.get, "/users/:id") { .json(User(id: Int($0.parameters["id"] ?? "") ?? -1)) }]))
        #expect(try await Self.call(.get("/users/12"), stub).value(as: User.self) == User(id: 12))
        let error = await #expect(throws: NetworkError.self) { try await Self.call(.delete("/users/12"), stub).response() }
        #expect(error?.description.contains("DELETE http://127.0.0.1:9/users/12") == true, "\(String(describing: error))")
    }

    @Test func cancellingDuringStubLatencyEndsPromptly() async {
        let stub = URLProtocolStub(answering: MockResponse.text("late").delayed(by: 5))
        let log = ResponderLog()
        var call = Self.call(.get("/slow"), stub)
        call.responder = log.responder
        let task = call.fire()
        #expect(await eventually { !stub.requests.isEmpty }, "the stub has the request: its latency runs")
        let start = Date()
        task.cancel()
        #expect(await log.waitForOutcome() == [.task, .noResponse, .error(.cancelled), .errorData(nil)])
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func anUntaggedTaskIsRefusedWithAnExplanation() async throws {
        let stub = URLProtocolStub(answering: .status(200))
        let error = await #expect(throws: (any Error).self) {
            _ = try await stub.urlSession.data(for: URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/raw"))))
        }
        #expect(error != nil)
        #expect(stub.requests.isEmpty)
    }

    @Test func tasksMadeByTheStubAreAnswered() async throws {
        let stub = URLProtocolStub(answering: .text("raw"))
        let url = try #require(URL(string: "http://127.0.0.1:9/raw"))
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            stub.dataTask(with: URLRequest(url: url)) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
        #expect(String(decoding: data, as: UTF8.self) == "raw")
    }
}
