import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import SalvoTesting
@_spi(Transport) @testable import Salvo

/// The three "nothing was sent" cases say whose fix it is, and responders hear no response for any.
@Suite struct ErrorCasesTests {
    struct SigningKeyMissing: Error, CustomStringConvertible {
        var description: String { "no signing key" }
    }

    struct Refusing: NetworkAction {
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest { throw SigningKeyMissing() }
    }

    @Test func anActionsOwnErrorArrivesAsRefusedByActionAndNothingIsSent() async {
        let log = MockRouteLog()
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/me"), actions: [Refusing()],
                           callbackQueue: .immediate, firingFunction: .mock(MockRoutes([.get("/me", .json(["id": 1]))]).logging(into: log)))
        let events = await call.fireAndRecord()
        #expect(events == [.task, .error(.refusedByAction(SigningKeyMissing())), .errorData(nil)], "no response event: nothing was sent")
        #expect(log.entries.isEmpty)
        do {
            _ = try await call.response()
            Issue.record("the action refuses every request")
        } catch .refusedByAction(let error as SigningKeyMissing) {
            #expect(error.description == "no signing key")
        } catch {
            Issue.record("expected refusedByAction, got \(error)")
        }
    }

    @Test func anUnmatchedMockRouteIsAnIncompleteSetupNotAnInvalidRequest() async {
        let call = NetCall(server: ServerConfig(host: "api.test", basePath: "v1"), endpoint: .get("/missing"),
                           callbackQueue: .immediate, firingFunction: .mock(MockRoutes(under: "v1", [.get("/users", .json(["ok": true]))])))
        let result = await result(of: call)
        guard case .failure(.incompleteSetup(let problem)) = result else {
            Issue.record("expected incompleteSetup, got \(result)")
            return
        }
        #expect(problem.part == .route)
        #expect(problem.reason.contains("No mock route matches GET https://api.test/v1/missing"))
    }

    @Test func aMissingFixtureIsAnIncompleteSetup() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/user.json")
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/me"), callbackQueue: .immediate,
                           firingFunction: .mock(MockRoutes([.get("/me", .fixture(missing))])))
        let result = await result(of: call)
        guard case .failure(.incompleteSetup(let problem)) = result else {
            Issue.record("expected incompleteSetup, got \(result)")
            return
        }
        #expect(problem.part == .fixture)
        #expect(problem.reason.contains(missing.path))
    }

    @Test func eachNewCaseHasASentenceThatSaysWhoseFixItIs() {
        let refused = NetworkError.refusedByAction(SigningKeyMissing()).description
        #expect(refused == "The request was not sent because an action refused it: no signing key.")
        let setup = NetworkError.incompleteSetup(SetupProblem(.route, "No mock route matches GET https://api.test/x")).description
        #expect(setup.hasPrefix("The request could not be answered because the route setup is incomplete: No mock route matches"))
    }

    @Test func bothResponseErrorsShareOnePayload() {
        let status = ResponseProblem(statusCode: 404, url: URL(string: "https://api.test/x"), body: Data("gone".utf8), headers: ["X-Id": "1"])
        let error = NetworkError.serverStatus(status)
        #expect(error.statusCode == 404)
        #expect(error.responseBody == Data("gone".utf8))
        #expect(status.reason == "status 404 is not accepted")
        let refused = NetworkError.unacceptableResponse(ResponseProblem("not JSON", statusCode: 200, url: status.url, headers: status.headers, body: status.body))
        #expect(refused.statusCode == nil, "a refused response goes to errorHandler, not serverErrorHandler")
        #expect(refused.responseBody == Data("gone".utf8))
    }
}
