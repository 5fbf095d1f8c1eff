import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Typed calls under mock firing: decoding, error bodies, the full response, one result per firing.
@Suite struct TypedCallTests {
    struct Ticket: Codable, Sendable, Equatable {
        let number: Int
        let title: String
    }

    struct Problem: Codable, Sendable, Equatable {
        let message: String
    }

    private let server = ServerConfig(host: "api.test", basePath: "v1")

    private func issueCall(_ firing: FiringFunction) -> TypedCall<Ticket, Problem> {
        TypedCall(NetCall(server: server, endpoint: .get("/issues/1"), callbackQueue: .immediate, firingFunction: firing))
    }

    @Test func theNetCallsPropertiesReadAndSetThroughTheTypedCall() async throws {
        var call = issueCall(.mock(.json(Ticket(number: 1, title: "Crash"))))
        call.endpoint = .get("/issues/2")
        call.callbackQueue = .main
        #expect(call.call.endpoint == .get("/issues/2"))
        #expect(call.server.host == "api.test")
        if case .main = call.call.callbackQueue {} else { Issue.record("the callback queue was not set through") }
        let response = try await call.response()
        #expect(response.data == response.response.data)
        #expect(response.head?.statusCode == 200)
    }

    @Test func valueDecodesWithoutTheFiringSideNamingATypeOrDecoder() async throws {
        let call = issueCall(.mock(.json(Ticket(number: 1, title: "Crash"))))
        #expect(try await call.value() == Ticket(number: 1, title: "Crash"))
    }

    @Test func aFailureCarriesTheErrorBodyDecodedAsTheAPIsType() async {
        let call = issueCall(.mock(.json(Problem(message: "Not Found"), status: 404)))
        await #expect(throws: APIError<Problem>.self) { try await call.value() }
        do {
            _ = try await call.value()
        } catch {
            #expect(error.body == Problem(message: "Not Found"))
            #expect(error.error.statusCode == 404)
        }
    }

    @Test func aForeignErrorBodyIsNilNotADecodingFailure() async {
        do {
            _ = try await issueCall(.mock(.text("<html>oops</html>", status: 500))).value()
            Issue.record("expected failure")
        } catch {
            #expect(error.body == nil)
            #expect(error.error.statusCode == 500)
        }
    }

    @Test func aBodyThatIsNotTheValueIsADecodingError() async {
        do {
            _ = try await issueCall(.mock(.json(["unexpected": true]))).value()
            Issue.record("expected failure")
        } catch {
            guard case .decoding = error.error else { Issue.record("expected .decoding, got \(error.error)"); return }
            #expect(error.body == nil)
        }
    }

    @Test(arguments: [(MockResponse.status(204), 204), (.text("deleted", status: 202), 202), (.json(Ticket(number: 1, title: "Crash")), 200)])
    func aVoidCallSucceedsWhateverTheSuccessfulBody(_ answer: MockResponse, _ status: Int) async throws {
        let delete = TypedCall<Void, Problem>(NetCall(server: server, endpoint: .delete("/issues/1"), firingFunction: .mock(answer)))
        try await delete.value()
        #expect(try await delete.response().statusCode == status)
    }

    @Test func aVoidCallStillDecodesTheErrorBody() async {
        let delete = TypedCall<Void, Problem>(
            NetCall(server: server, endpoint: .delete("/issues/1"), firingFunction: .mock(.json(Problem(message: "locked"), status: 423)))
        )
        do {
            try await delete.value()
            Issue.record("expected failure")
        } catch {
            #expect(error.body == Problem(message: "locked"))
            #expect(error.error.statusCode == 423)
        }
    }

    @Test func anOptionalValueIsNilForAnEmptySuccessAndDecodedOtherwise() async throws {
        let empty = TypedCall<Ticket?, Problem>(NetCall(server: server, endpoint: .get("/issues/1"), firingFunction: .mock(.status(204))))
        #expect(try await empty.value() == nil)
        let found = TypedCall<Ticket?, Problem>(NetCall(server: server, endpoint: .get("/issues/1"), firingFunction: .mock(.json(Ticket(number: 1, title: "Crash")))))
        #expect(try await found.value() == Ticket(number: 1, title: "Crash"))
    }

    @Test func theResponseCarriesStatusHeadersAndURL() async throws {
        let call = issueCall(.mock(.json(Ticket(number: 1, title: "Crash"), status: 201, headers: ["ETag": "\"v7\"", "X-RateLimit-Remaining": "59"])))
        let response = try await call.response()
        #expect(response.value.number == 1)
        #expect(response.statusCode == 201)
        #expect(response.headers["etag"] == "\"v7\"")
        #expect(response.headers["X-RateLimit-Remaining"] == "59")
        #expect(response.url?.absoluteString == "https://api.test/v1/issues/1")
    }

    @Test func theServersDecoderIsTheDefaultAndACallMayOverrideIt() async throws {
        struct Snake: Codable, Sendable, Equatable { let createdBy: String }
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        var server = server
        server.decoder = snakeCase
        var call = TypedCall<Snake, Never>(NetCall(server: server, endpoint: .get("/x"), callbackQueue: .immediate,
                                           firingFunction: .mock(.text(#"{"created_by":"ada"}"#))))
        #expect(try await call.value() == Snake(createdBy: "ada"))
        call.decoder = JSONDecoder()
        await #expect(throws: APIError<Never>.self) { try await call.value() }
    }

    @Test func oneEndpointMayDecodeADifferentErrorBody() async {
        struct Other: Decodable, Sendable { let code: Int }
        let call = TypedCall<Ticket, Other>(issueCall(.mock(.text(#"{"code":7}"#, status: 409))).call)
        do {
            _ = try await call.value()
        } catch {
            #expect(error.body?.code == 7)
        }
    }

    @Test func anUntypedCallBecomesTyped() async throws {
        let untyped = NetCall(server: server, endpoint: .get("/issues/1"), callbackQueue: .immediate,
                              firingFunction: .mock(.json(Ticket(number: 1, title: "A"))))
        #expect(try await TypedCall<Ticket, Problem>(untyped).value().title == "A")
    }

    @Test func swappingTheFiringFunctionReachesTheUntypedCore() async throws {
        let spy = FiringSpy(answering: .json(Ticket(number: 2, title: "B")))
        var call = issueCall(.production)
        call.firingFunction = spy.firingFunction
        #expect(try await call.value().number == 2)
        #expect(spy.calls.map(\.endpoint) == [.get("/issues/1")])
    }

    @Test func fireOnAQueueDeliversOneResultAfterTheCallsOwnHandlers() async throws {
        var call = issueCall(.mock(.json(Ticket(number: 3, title: "C"))))
        let log = Locked<[String]>([])
        call.call.responder.taskHandler = { _ in log.withLock { $0.append("task") } }
        call.call.responder.dataHandler = { _ in log.withLock { $0.append("data") } }
        let delivered = Signal()
        call.fire(on: .immediate) { result in
            log.withLock { $0.append((try? result.get().value.title) ?? "failure") }
            delivered.fire()
        }
        try await delivered.wait()
        #expect(log.withLock { $0 } == ["task", "data", "C"])
    }

    @Test func fireGivesTheTypedResponseOrTheAPIError() async throws {
        let received = Locked<[String]>([])
        let done = Signal()
        issueCall(.mock(.json(Problem(message: "gone"), status: 410))).fire(on: .immediate) { result in
            switch result {
            case .success: received.withLock { $0.append("success") }
            case .failure(let error): received.withLock { $0.append("\(error.error.statusCode ?? 0) \(error.body?.message ?? "-")") }
            }
            done.fire()
        }
        try await done.wait()
        #expect(received.withLock { $0 } == ["410 gone"])
    }

    @Test func cancellingDeliversOneCancelledResult() async throws {
        let results = Locked<[String]>([])
        let call = issueCall(.mock(.json(Ticket(number: 1, title: "A")).delayed(by: 30)))
        let task = call.fire(on: .immediate) { result in
            results.withLock { $0.append(result.isCancelled ? "cancelled" : "other") }
        }
        task.cancel()
        task.cancel()
        #expect(results.withLock { $0 } == ["cancelled"])
    }

    @Test func theUntypedCallFiresATypedCallWithItsOwnResponder() {
        let spy = FiringSpy()
        let fire: @Sendable () -> NetworkTask = issueCall(spy.firingFunction).call.fire
        _ = fire()
        #expect(spy.calls.count == 1)
    }
}

private extension Result where Failure == APIError<TypedCallTests.Problem> {
    var isCancelled: Bool {
        if case .failure(let error) = self { return error.error.isCancelled }
        return false
    }
}
