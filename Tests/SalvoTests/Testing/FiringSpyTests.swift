import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct FiringSpyTests {
    struct Token: NetworkAction {
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            var request = request
            request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
            return request
        }
    }

    @Test func recordsServerEndpointAndBuiltRequestOfEveryCall() async throws {
        let spy = FiringSpy()
        let server = ServerConfig(host: "api.example.com", basePath: "v2")
        let first = NetCall(server: server, endpoint: .get("/users", query: ["page": "1"]), callbackQueue: .immediate, firingFunction: spy.firingFunction)
        var second = first
        second.endpoint = .delete("/users/4")
        _ = try await first.response()
        _ = try await second.response()
        #expect(spy.calls.map(\.endpoint) == [.get("/users", query: ["page": "1"]), .delete("/users/4")])
        #expect(spy.calls.map(\.server.host) == ["api.example.com", "api.example.com"])
        #expect(spy.calls.map(\.description) == ["GET https://api.example.com/v2/users?page=1", "DELETE https://api.example.com/v2/users/4"])
        #expect(spy.lastCall?.request?.httpMethod == "DELETE")
    }

    @Test func answersWithItsMockOutcomeThroughTheSamePipeline() async {
        let spy = FiringSpy(answering: .status(500))
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), callbackQueue: .immediate, firingFunction: spy.firingFunction)
        #expect(await call.fireAndRecord().last == .serverError(status: 500))
    }

    @Test func sentRequestsShowWhatActionsAdded() async throws {
        let spy = FiringSpy(answering: .text("ok"))
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/me"), actions: [Token()], callbackQueue: .immediate, firingFunction: spy.firingFunction)
        _ = try await call.response()
        #expect(spy.calls.first?.request?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(spy.sentRequests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test func anUnbuildableCallIsRecordedWithoutARequest() async {
        let spy = FiringSpy()
        let call = NetCall(server: ServerConfig(host: "bad host"), endpoint: .get("/"), callbackQueue: .immediate, firingFunction: spy.firingFunction)
        #expect(await call.fireAndRecord() == [.error(.invalidRequest(RequestProblem(.host, ""))), .errorData(nil)])
        #expect(spy.calls.count == 1)
        #expect(spy.calls.first?.request == nil)
        #expect(spy.sentRequests.isEmpty)
    }

    @Test func waitsForCallsFiredElsewhereAndResets() async {
        let spy = FiringSpy()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/later"), callbackQueue: .immediate, firingFunction: spy.firingFunction)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { call.fire(); call.fire() }
        #expect(await spy.waitForCalls(2).count == 2)
        spy.reset()
        #expect(spy.calls.isEmpty && spy.sentRequests.isEmpty)
    }

    /// An action that lets the firing return before the request reaches the spy's session.
    struct Yielding: NetworkAction {
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            await Task.yield()
            return request
        }
    }

    @Test(arguments: 0..<50)
    func aWaitThatReturnsFindsTheSentRequestRecorded(round: Int) async {
        let spy = FiringSpy()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/r\(round)"), actions: [Yielding()], callbackQueue: .immediate, firingFunction: spy.firingFunction)
        call.fire()
        #expect(await spy.waitForCalls(1).count == 1)
        #expect(spy.sentRequests.map { $0.url?.path } == ["/r\(round)"])
    }

    @Test func aWaitReturnsForACallThatEndsBeforeReachingTheSession() async {
        let spy = FiringSpy()
        let call = NetCall(server: ServerConfig(host: "bad host"), endpoint: .get("/"), callbackQueue: .immediate, firingFunction: spy.firingFunction)
        call.fire()
        #expect(await spy.waitForCalls(1, timeout: 5).count == 1)
        #expect(spy.sentRequests.isEmpty)
    }
}
