import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Content-type validation per server and per endpoint against real responses.
@Suite struct ValidationActionIntegrationTests {
    private func jsonServer() async throws -> ServerConfig {
        var server = try await ServerConfig.loopback()
        server.actions = [ValidationAction.json]
        return server
    }

    @Test(arguments: TransportUnderTest.all)
    func anHTMLPageOnAJSONServerIsRefused(over transport: TransportUnderTest) async throws {
        let outcome = await result(of: NetCall(server: try await jsonServer(), endpoint: .get("/html"), firingFunction: transport.firing))
        guard case .failure(.unacceptableResponse(let problem)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(problem.reason.contains("text/html"))
        #expect(problem.url?.path == "/html")
        #expect(String(decoding: problem.body ?? Data(), as: UTF8.self).contains("<html>"))
    }

    /// The loopback server's 204 has neither Content-Length nor Content-Type.
    @Test(arguments: TransportUnderTest.all)
    func aNoContentAnswerEndsStreamsOnAJSONServer(over transport: TransportUnderTest) async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: .get("/status/204"), firingFunction: transport.firing)
        var chunks = 0
        for try await _ in call.bytes() { chunks += 1 }
        #expect(chunks == 0)
        let (events, error) = try await readAll(call.events())
        #expect(events.isEmpty)
        #expect(error == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func eventsPassTheServersJSONValidation(over transport: TransportUnderTest) async throws {
        let endpoint = Endpoint.get(EndpointPath("/stream/sse/\(uniqueKey())"), query: ["count": "3"])
        let call = NetCall(server: try await jsonServer(), endpoint: endpoint, firingFunction: transport.firing)
        let (events, error) = try await readAll(call.events(reconnection: .never))
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(error == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func bytesOptOutOfTheServersJSONValidationInOneLine(over transport: TransportUnderTest) async throws {
        var call = NetCall(server: try await jsonServer(), endpoint: .get("/stream/bytes", query: ["n": "1000"]), firingFunction: transport.firing)
        await #expect(throws: NetworkError.self) { for try await _ in call.bytes() {} }
        call.actions.append(ValidationAction())
        var count = 0
        for try await chunk in call.bytes() { count += chunk.count }
        #expect(count == 1000)
    }

    @Test(arguments: TransportUnderTest.all)
    func jsonPassesTheServersValidation(over transport: TransportUnderTest) async throws {
        let echo = try await NetCall(server: try await jsonServer(), endpoint: .get("/echo"), firingFunction: transport.firing).value(as: Echo.self)
        #expect(echo.method == "GET")
    }

    @Test(arguments: TransportUnderTest.all)
    func anEndpointAcceptingTextOverridesTheServer(over transport: TransportUnderTest) async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: .get("/text"), actions: [ValidationAction(contentTypes: ["text/plain"])], firingFunction: transport.firing)
        let response = try await withTimeout { try await call.response() }
        #expect(String(decoding: response.data, as: UTF8.self) == "not json at all")
    }

    /// httpbin's `/status/204` sends `Content-Type: text/html`; a content type describes a body,
    /// and these responses have none.
    @Test(arguments: TransportUnderTest.all, [
        Endpoint.get("/empty/204"), .get("/empty/205"), .get("/empty/200"), .delete("/empty/202", query: ["type": "text/plain"]),
        .head("/text"),
    ])
    func anEmptySuccessPassesJSONValidationWhateverItsContentType(over transport: TransportUnderTest, _ endpoint: Endpoint) async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: endpoint, firingFunction: transport.firing)
        let response = try await withTimeout { try await call.response() }
        #expect(response.data.isEmpty)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/") == true)
    }
}
