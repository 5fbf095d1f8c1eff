import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

/// Content-type validation per server and per endpoint against real responses.
@Suite struct ValidationActionIntegrationTests {
    private func jsonServer() async throws -> ServerConfig {
        var server = try await ServerConfig.loopback()
        server.actions = [ValidationAction.json]
        return server
    }

    @Test func anHTMLPageOnAJSONServerIsRefused() async throws {
        let outcome = await result(of: NetCall(server: try await jsonServer(), endpoint: .get("/html")))
        guard case .failure(.unacceptableResponse(let problem)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(problem.reason.contains("text/html"))
        #expect(problem.url?.path == "/html")
        #expect(String(decoding: problem.body ?? Data(), as: UTF8.self).contains("<html>"))
    }

    @Test func jsonPassesTheServersValidation() async throws {
        let echo = try await NetCall(server: try await jsonServer(), endpoint: .get("/echo")).value(as: Echo.self)
        #expect(echo.method == "GET")
    }

    @Test func anEndpointAcceptingTextOverridesTheServer() async throws {
        let call = NetCall(server: try await jsonServer(), endpoint: .get("/text"), actions: [ValidationAction(contentTypes: ["text/plain"])])
        let response = try await withTimeout { try await call.response() }
        #expect(String(decoding: response.data, as: UTF8.self) == "not json at all")
    }
}
