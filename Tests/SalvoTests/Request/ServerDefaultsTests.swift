import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// What a server sets for every call made with it: the firing function and whether endpoints
/// need credentials, each overridable by one call or one endpoint.
@Suite struct ServerDefaultsTests {
    @Test func aCallFiresThroughItsServersFiringFunctionUnlessItSetsItsOwn() async throws {
        let serverSession = ScriptedSession(.status(200))
        let callSession = ScriptedSession(.status(201))
        let server = ServerConfig(host: "api.test", firingFunction: serverSession.firingFunction)

        #expect(try await NetCall(server: server, endpoint: .get("/a"), callbackQueue: .immediate).response().head?.statusCode == 200)
        var own = NetCall(server: server, endpoint: .get("/b"), callbackQueue: .immediate, firingFunction: callSession.firingFunction)
        #expect(try await own.response().head?.statusCode == 201)
        own.server.host = "other.test"
        #expect(try await own.response().head?.statusCode == 201, "a call's own firing function survives a new server")
        #expect(serverSession.requests.map { $0.url?.path } == ["/a"])
        #expect(callSession.requests.count == 2)
    }

    @Test func swappingTheServersFiringFunctionSwapsItForCallsMadeBefore() async throws {
        let spy = FiringSpy(answering: .status(204))
        var call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/a"), callbackQueue: .immediate)
        call.server.firingFunction = spy.firingFunction
        #expect(try await call.response().head?.statusCode == 204)
        #expect(spy.calls.count == 1)
    }

    /// The call resolves its firing function when it is configured, as it builds its request:
    /// a new server brings its firing function unless the call set its own.
    @Test func aNewServerBringsItsFiringFunctionUnlessTheCallSetItsOwn() async throws {
        let first = ScriptedSession(.status(200)), second = ScriptedSession(.status(202)), own = ScriptedSession(.status(203))
        var call = NetCall(server: ServerConfig(host: "api.test", firingFunction: first.firingFunction), endpoint: .get("/a"), callbackQueue: .immediate)
        #expect(try await call.response().head?.statusCode == 200)
        call.server = ServerConfig(host: "api.test", firingFunction: second.firingFunction)
        #expect(try await call.response().head?.statusCode == 202)
        call.firingFunction = own.firingFunction
        call.server = ServerConfig(host: "api.test", firingFunction: first.firingFunction)
        #expect(try await call.response().head?.statusCode == 203)
        #expect(first.requests.count == 1 && second.requests.count == 1 && own.requests.count == 1)
    }

    @Test func aTypedCallFollowsItsServersFiringFunction() async throws {
        let server = ServerConfig(host: "api.test", firingFunction: .mock(.text("7")))
        #expect(try await TypedCall<Int, Never>(NetCall(server: server, endpoint: .get("/n"), callbackQueue: .immediate)).value() == 7)
    }

    @Test(arguments: [
        (false, nil, false), (false, true, true), (true, nil, true), (true, false, false), (true, true, true),
    ] as [(Bool, Bool?, Bool)])
    func theEndpointDecidesWhetherItNeedsCredentialsElseItsServer(server: Bool, endpoint: Bool?, expected: Bool) {
        let call = NetCall(server: ServerConfig(host: "api.test", requiresAuthentication: server),
                           endpoint: Endpoint(path: "/me", requiresAuthentication: endpoint))
        #expect(call.requiresAuthentication == expected)
    }

    @Test func aServerThatRequiresAuthenticationGetsTheTokenOnEveryEndpointButOneThatOptsOut() async throws {
        let session = ScriptedSession(.status(200))
        var server = ServerConfig(host: "api.test", requiresAuthentication: true, firingFunction: session.firingFunction)
        server.actions = [AuthTokenAction { "abc" }]
        _ = try await NetCall(server: server, endpoint: .get("/me"), callbackQueue: .immediate).response()
        _ = try await NetCall(server: server, endpoint: Endpoint.post("/login").requiringAuthentication(false), callbackQueue: .immediate).response()
        #expect(session.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer abc", nil])
    }
}
