import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Successful responses without a body (204, 205, HEAD, an empty 200) from the loopback server's
/// `/empty/<status>` route, which sends a `Content-Type` along as httpbin's `/status/204` does,
/// through a server that validates JSON.
@Suite struct EmptySuccessIntegrationTests {
    struct StatusProblem: Decodable, Sendable {
        let status: Int
    }

    private func jsonServer() async throws -> ServerConfig {
        var server = try await ServerConfig.loopback()
        server.actions = [ValidationAction.json]
        return server
    }

    @Test(arguments: TransportUnderTest.all, ["/empty/204", "/empty/205", "/empty/200"])
    func anOptionalValueIsNil(over transport: TransportUnderTest, _ path: String) async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: .get(EndpointPath(path)), firingFunction: transport.firing)
        let echo = try await withTimeout { try await call.value(as: Echo?.self) }
        #expect(echo == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func anOptionalValueDecodesABody(over transport: TransportUnderTest) async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: .get("/echo/found"), firingFunction: transport.firing)
        let echo = try await withTimeout { try await call.value(as: Echo?.self) }
        #expect(echo?.path == "/echo/found")
    }

    @Test(arguments: TransportUnderTest.all)
    func aValueFromNoBodyIsADecodingErrorNamingTheWayOut(over transport: TransportUnderTest) async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: .get("/empty/204"), firingFunction: transport.firing)
        let failure = await #expect(throws: NetworkError.self) { try await withTimeout { try await call.value(as: Echo.self) } }
        guard case .decoding(let decoding)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(decoding.body.isEmpty)
        #expect(failure?.description.contains("(Echo?)") == true)
    }

    @Test(arguments: TransportUnderTest.all, [Endpoint.delete("/empty/204"), .put("/empty/205", body: .text("reset")), .head("/text"), .post("/echo")])
    func aVoidTypedCallSucceedsWithOrWithoutABody(over transport: TransportUnderTest, _ endpoint: Endpoint) async throws {
        let call = TypedCall<Void, StatusProblem>(NetCall(server: try await jsonServer(), endpoint: endpoint, firingFunction: transport.firing))
        let response = try await withTimeout { try await call.response() }
        #expect(response.statusCode.map { (200..<300).contains($0) } == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func aVoidTypedCallFailsWithTheErrorBody(over transport: TransportUnderTest) async throws {
        let call = TypedCall<Void, StatusProblem>(NetCall(server: try await jsonServer(), endpoint: .delete("/status/409"), firingFunction: transport.firing))
        do {
            try await withTimeout { try await call.value() }
            Issue.record("expected the 409")
        } catch let error as APIError<StatusProblem> {
            #expect(error.body?.status == 409)
        }
    }
}
