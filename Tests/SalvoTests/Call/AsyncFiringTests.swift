import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct AsyncFiringTests {
    struct User: Codable, Equatable, Sendable { let id: Int; let name: String }
    struct Problem: Decodable, Equatable, Sendable { let message: String }

    private func call(_ reply: ScriptedSession.Reply) -> NetCall {
        NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/users/1"), firingFunction: .session(ScriptedSession(reply)))
    }

    @Test func responseReturnsBodyAndStatus() async throws {
        let response = try await call(.status(201, headers: ["X-Id": "7"], body: Data("hi".utf8))).response()
        #expect(response.data == Data("hi".utf8))
        #expect(response.statusCode == 201)
        #expect(response.headers["x-id"] == "7")
    }

    @Test func valueDecodesTheBody() async throws {
        let body = try JSONEncoder().encode(User(id: 1, name: "Ann"))
        let user = try await call(.status(200, body: body)).value(as: User.self)
        #expect(user == User(id: 1, name: "Ann"))
    }

    @Test func undecodableBodyThrowsDecodingWithTheBody() async {
        do {
            _ = try await call(.status(200, body: Data("nope".utf8))).value(as: User.self)
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(let failure) = error else { Issue.record("got \(error)"); return }
            #expect(failure.body == Data("nope".utf8))
            #expect(failure.typeName == "User")
        }
    }

    @Test(arguments: [204, 205, 200])
    func anOptionalValueIsNilForAnEmptySuccess(_ status: Int) async throws {
        let user = try await call(.status(status, headers: ["Content-Type": "application/json"], body: Data())).value(as: User?.self)
        #expect(user == nil)
    }

    @Test func anOptionalValueDecodesABody() async throws {
        let body = try JSONEncoder().encode(User(id: 3, name: "Cy"))
        #expect(try await call(.status(200, body: body)).value(as: User?.self) == User(id: 3, name: "Cy"))
    }

    @Test func aValueFromAnEmptyBodyIsADecodingErrorThatSaysSo() async {
        do {
            _ = try await call(.status(204, body: Data())).value(as: User.self)
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(let failure) = error else { Issue.record("got \(error)"); return }
            #expect(failure.body.isEmpty)
            #expect(error.description == "The response has no body, so it could not be decoded as User; decode an optional "
                + "(User?) if the body may be empty, or use response() (Void in a typed call) if the endpoint returns nothing.")
        }
    }

    @Test func serverStatusThrowsWithCodeAndBody() async {
        do {
            _ = try await call(.status(404, body: Data("gone".utf8))).response()
            Issue.record("expected a server status error")
        } catch {
            #expect(error.statusCode == 404)
            #expect(error.responseBody == Data("gone".utf8))
        }
    }

    @Test func typedAPIErrorDecodesTheErrorBody() async {
        do {
            _ = try await TypedCall<User, Problem>(call(.status(422, body: Data(#"{"message":"name taken"}"#.utf8)))).value()
            Issue.record("expected an API error")
        } catch {
            #expect(error.body == Problem(message: "name taken"))
            #expect(error.error.statusCode == 422)
        }
    }

    @Test(arguments: [Data(), Data("<html>oops</html>".utf8)])
    func absentOrForeignErrorBodyGivesNilNotADecodingFailure(_ body: Data) async {
        do {
            _ = try await TypedCall<User, Problem>(call(.status(500, body: body))).value()
            Issue.record("expected an API error")
        } catch {
            #expect(error.body == nil)
            #expect(error.error.statusCode == 500)
        }
    }

    @Test func cancellingTheSwiftTaskCancelsTheRequestAndThrowsCancelled() async {
        let session = ScriptedSession(.hang)
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/slow"), firingFunction: .session(session))
        let work = Task { () -> NetworkError? in
            do throws(NetworkError) {
                _ = try await call.response()
                return nil
            } catch {
                return error
            }
        }
        while session.requests.isEmpty { await Task.yield() }
        work.cancel()
        let error = await work.value
        #expect(error?.isCancelled == true)
    }

    @Test func alreadyCancelledTaskNeverSendsARequest() async {
        let session = ScriptedSession(.status(200))
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/x"), firingFunction: .session(session))
        let work = Task { () -> NetworkError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(NetworkError) {
                _ = try await call.response()
                return nil
            } catch {
                return error
            }
        }
        let error = await work.value
        #expect(error?.isCancelled == true)
    }

    @Test func asyncGoesThroughTheFiringFunction() async throws {
        let fired = Locked(0)
        var call = call(.status(200, body: Data("{}".utf8)))
        let inner = call.firingFunction
        call.firingFunction = FiringFunction { call, channel in
            fired.withLock { $0 += 1 }
            return inner(call, channel)
        }
        _ = try await call.response()
        #expect(fired.withLock { $0 } == 1)
    }

    @Test func decodingResponderHandsAResult() async throws {
        let body = try JSONEncoder().encode(User(id: 2, name: "Bo"))
        let received = Locked<Result<User, NetworkError>?>(nil)
        var call = call(.status(200, body: body))
        call.callbackQueue = .immediate
        call.responder = .decoding(User.self) { result in received.withLock { $0 = result } }
        call.fire()
        let result = try #require(received.withLock { $0 })
        #expect(try result.get() == User(id: 2, name: "Bo"))
    }

    @Test func decodingResponderHandsNilForAnEmptySuccessWhenTheValueIsOptional() async throws {
        let received = Locked<Result<User?, NetworkError>?>(nil)
        var call = call(.status(204, body: Data()))
        call.callbackQueue = .immediate
        call.responder = .decoding(User?.self) { result in received.withLock { $0 = result } }
        call.fire()
        let result = try #require(received.withLock { $0 })
        #expect(try result.get() == nil)
    }

    @Test func aTypedCallsCallbackHandsTheDecodedProblem() throws {
        let received = Locked<Result<User, APIError<Problem>>?>(nil)
        var call = call(.status(400, body: Data(#"{"message":"bad"}"#.utf8)))
        call.callbackQueue = .immediate
        TypedCall<User, Problem>(call).fire(on: .immediate) { result in received.withLock { $0 = result.map(\.value) } }
        let result = try #require(received.withLock { $0 })
        guard case .failure(let error) = result else { Issue.record("expected failure"); return }
        #expect(error.body == Problem(message: "bad"))
    }
}
