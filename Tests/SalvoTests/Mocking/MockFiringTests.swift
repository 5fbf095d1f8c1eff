import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct MockFiringTests {
    struct User: Codable, Equatable, Sendable {
        let id: Int
        let name: String
    }

    static let server = ServerConfig(host: "api.example.com", basePath: "v1")

    static func call(_ firing: FiringFunction, _ endpoint: Endpoint = .get("/users/1")) -> NetCall {
        NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: firing)
    }

    @Test func mockAndFakeSessionGiveTheSameHandlerSequence() async {
        let body = Data(#"{"error":"boom"}"#.utf8)
        var call = Self.call(.mock(.data(body, status: 500)))
        let mocked = await call.fireAndRecord()
        call.firingFunction = .session(ScriptedSession(.status(500, body: body)))
        let faked = await call.fireAndRecord()
        #expect(mocked == faked)
        #expect(mocked == [.task, .response, .httpResponse(status: 500), .errorData(body), .serverError(status: 500)])
    }

    @Test func a500StubReachesServerErrorHandlerAndNeverDataHandler() async {
        let reachedData = Locked(false)
        var call = Self.call(.mock(.status(500)))
        call.responder.dataHandler = { _ in reachedData.withLock { $0 = true } }
        let events = await call.fireAndRecord()
        #expect(events.last == .serverError(status: 500))
        #expect(!reachedData.withLock { $0 })
    }

    @Test func jsonBodyDecodesThroughAsyncAPIWithContentType() async throws {
        let user = User(id: 7, name: "Ada")
        let call = Self.call(.mock(.json(user)))
        #expect(try await call.value(as: User.self) == user)
        let response = try await call.response()
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.statusCode == 200)
    }

    @Test func textBodyAndExtraHeadersAreAnswered() async throws {
        let response = try await Self.call(.mock(.text("hello", status: 201, headers: ["X-Trace": "t1"]))).response()
        #expect(String(decoding: response.data, as: UTF8.self) == "hello")
        #expect(response.statusCode == 201)
        #expect(response.headers["X-Trace"] == "t1")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func transportFailureMapsToTransportError() async {
        let events = await Self.call(.mock(.failure(.notConnectedToInternet))).fireAndRecord()
        #expect(events == [.task, .noResponse, .error(.transport(URLError(.notConnectedToInternet))), .errorData(nil)])
    }

    @Test func unencodableValueFailsWithAMockSetupProblem() async {
        struct Bad: Encodable {
            func encode(to encoder: any Encoder) throws { throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no")) }
        }
        await #expect(throws: NetworkError.self) { try await Self.call(.mock(.json(Bad()))).response() }
        let events = await Self.call(.mock(.json(Bad()))).fireAndRecord()
        #expect(events.contains(.error(.incompleteSetup(SetupProblem(.mock, "")))))
    }

    @Test func actionsRunAroundMockAnswersAsInProduction() async throws {
        struct Stamp: NetworkAction {
            func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
                var request = request
                request.setValue("yes", forHTTPHeaderField: "X-Stamped")
                return request
            }
        }
        var call = Self.call(.mock { request in .text(request.header("X-Stamped") ?? "no") })
        call.actions = [Stamp()]
        #expect(String(decoding: try await call.response().data, as: UTF8.self) == "yes")
    }

    @Test func fileBodyIsReadWhenAnswered() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("user.json")
        try Data(#"{"id":1,"name":"Bo"}"#.utf8).write(to: file)
        #expect(try await Self.call(.mock(.file(file))).value(as: User.self) == User(id: 1, name: "Bo"))
    }

    @Test func bundleResourceIsFoundByNameAndExtension() async throws {
        let folder = try TemporaryFolder()
        try Data("from a bundle".utf8).write(to: folder.url.appendingPathComponent("greeting.txt"))
        let bundle = try #require(Bundle(url: folder.url))
        let response = try await Self.call(.mock(.resource("greeting.txt", in: bundle))).response()
        #expect(String(decoding: response.data, as: UTF8.self) == "from a bundle")
    }

    @Test func missingBundleResourceNamesTheResource() async throws {
        let folder = try TemporaryFolder()
        let bundle = try #require(Bundle(url: folder.url))
        let error = await #expect(throws: NetworkError.self) { try await Self.call(.mock(.resource("nope.json", in: bundle))).response() }
        #expect(error?.description.contains("nope.json") == true)
    }

    @Test(arguments: [
        ("missing.json", nil, "does not exist"),
        ("empty.txt", "", "is empty"),
        ("broken.json", "{not json", "is not valid JSON"),
    ] as [(String, String?, String)])
    func badBodyFilesFailNamingTheFile(name: String, contents: String?, message: String) async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent(name)
        if let contents { try Data(contents.utf8).write(to: file) }
        let error = await #expect(throws: NetworkError.self) { try await Self.call(.mock(.file(file))).response() }
        let description = error?.description ?? ""
        #expect(description.contains(file.path))
        #expect(description.contains(message))
    }
}
