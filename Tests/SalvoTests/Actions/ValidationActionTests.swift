import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct ValidationActionTests {
    private func fire(
        status: Int = 200,
        contentType: String?,
        body: String = "{}",
        server serverActions: [any NetworkAction] = [],
        call callActions: [any NetworkAction] = []
    ) async -> Result<NetworkResponse, NetworkError> {
        let headers: HTTPHeaders = contentType.map { ["Content-Type": $0] } ?? [:]
        let session = ScriptedSession(.status(status, headers: headers, body: Data(body.utf8)))
        var server = ServerConfig(host: "api.test")
        server.actions = serverActions
        let call = NetCall(server: server, endpoint: .get("/x"), actions: callActions, callbackQueue: .immediate, firingFunction: session.firingFunction)
        return await result(of: call)
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/problem+json"])
    func jsonValidationAcceptsJSONTypes(_ type: String) async throws {
        _ = try await fire(contentType: type, server: [ValidationAction.json]).get()
    }

    @Test func aRefusedContentTypeIsAnUnacceptableResponseNamingBothTypes() async {
        let outcome = await fire(contentType: "text/html; charset=utf-8", body: "<html>", server: [ValidationAction.json])
        guard case .failure(.unacceptableResponse(let problem)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(problem.reason.contains("text/html"))
        #expect(problem.reason.contains("application/json"))
        #expect(problem.statusCode == 200)
        #expect(problem.body == Data("<html>".utf8))
    }

    @Test func aMissingContentTypeIsRefusedOnlyWhenThereIsABody() async {
        let validation = ValidationAction.json
        guard case .failure(.unacceptableResponse) = await fire(contentType: nil, server: [validation]) else {
            Issue.record("a body without a content type must be refused")
            return
        }
        #expect((try? await fire(status: 204, contentType: nil, body: "", server: [validation]).get()) != nil)
    }

    @Test(arguments: ["application/json, application/problem+json", "json", ""])
    func anUnreadableContentTypeIsRefusedQuotingIt(_ header: String) async {
        let outcome = await fire(contentType: header, server: [ValidationAction.json])
        guard case .failure(.unacceptableResponse(let problem)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(problem.reason.hasPrefix("Content-Type \"\(header)\" is not a media type"), "\(problem.reason)")
    }

    @Test(arguments: [(204, "text/html; charset=utf-8"), (205, "text/plain"), (200, "application/octet-stream")])
    func anEmptySuccessPassesWhateverItsContentType(_ status: Int, _ contentType: String) async throws {
        let response = try await fire(status: status, contentType: contentType, body: "", server: [ValidationAction.json]).get()
        #expect(response.statusCode == status)
    }

    private static let jsonServer: ServerConfig = {
        var server = ServerConfig(host: "api.test")
        server.actions = [ValidationAction.json]
        return server
    }()

    /// A streamed head whose length is unknown (no Content-Length: -1) still has no body when its
    /// status or method says so.
    @Test(arguments: [(204, HTTPMethod.get), (205, .get), (200, .head)])
    func aStreamWithNoBodyByDefinitionEndsEmptyOnAJSONServer(_ status: Int, _ method: HTTPMethod) async throws {
        let call = NetCall(server: Self.jsonServer, endpoint: Endpoint(method: method, path: "/x"), firingFunction: .mock(.status(status)))
        var chunks = 0
        for try await _ in call.bytes() { chunks += 1 }
        #expect(chunks == 0)
    }

    @Test func eventsOfANoContentAnswerEndWithoutAnErrorOnAJSONServer() async throws {
        let call = NetCall(server: Self.jsonServer, endpoint: .get("/feed"), firingFunction: .mock(.status(204)))
        let (events, error) = try await readAll(call.events())
        #expect(events.isEmpty)
        #expect(error == nil)
    }

    @Test func eventsPassAJSONServersValidation() async throws {
        let stream = MockResponse.text("data: a\n\n", headers: ["Content-Type": "text/event-stream"])
        let call = NetCall(server: Self.jsonServer, endpoint: .get("/feed"), firingFunction: .mock(stream))
        let (events, error) = try await readAll(call.events(reconnection: .never))
        #expect(events.map(\.data) == ["a"])
        #expect(error == nil)
    }

    /// Only a type named outright widens the validation: a wildcard `Accept` asks for nothing in particular.
    @Test(arguments: [("text/event-stream", true), ("text/csv, text/event-stream;q=0.9", true), ("*/*", false), ("text/*", false)])
    func aTypeTheCallAsksForByNameIsAccepted(_ accept: String, isAccepted: Bool) async {
        let session = ScriptedSession(.status(200, headers: ["Content-Type": "text/event-stream"], body: Data("data: a\n\n".utf8)))
        let call = NetCall(server: Self.jsonServer, endpoint: .get("/x", headers: ["Accept": accept]), callbackQueue: .immediate, firingFunction: session.firingFunction)
        let outcome = await result(of: call)
        #expect(((try? outcome.get()) != nil) == isAccepted, "\(outcome)")
    }

    @Test func bytesOptOutOfTheServersValidationWithAValidationOfTheirOwn() async throws {
        var call = NetCall(server: Self.jsonServer, endpoint: .get("/x"), firingFunction: .mock(.data(Data([1, 2, 3]), headers: ["Content-Type": "application/octet-stream"])))
        await #expect(throws: NetworkError.self) { for try await _ in call.bytes() {} }
        call.actions.append(ValidationAction())
        var received = Data()
        for try await chunk in call.bytes() { received.append(chunk) }
        #expect(received == Data([1, 2, 3]))
    }

    @Test func wildcardsMatchWholeTypesAndSubtypes() async {
        let images = ValidationAction(contentTypes: ["image/*"])
        #expect((try? await fire(contentType: "image/png", server: [images]).get()) != nil)
        #expect((try? await fire(contentType: "text/png", server: [images]).get()) == nil)
        #expect((try? await fire(contentType: "text/plain", server: [ValidationAction(contentTypes: ["*/*"])]).get()) != nil)
    }

    @Test func statusCodesNarrowTheSuccessfulRangeWithAServerStatusError() async {
        let outcome = await fire(status: 202, contentType: "application/json", server: [ValidationAction(statusCodes: [200])])
        guard case .failure(let error) = outcome else { Issue.record("expected failure"); return }
        #expect(error.statusCode == 202)
    }

    @Test func failedResponsesAreLeftAsTheyAre() async {
        let outcome = await fire(status: 500, contentType: "text/html", server: [ValidationAction.json])
        guard case .failure(.serverStatus(let failure)) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(failure.statusCode == 500)
    }

    @Test func aCallsValidationReplacesTheServers() async {
        let png = ValidationAction(contentTypes: ["image/png"])
        #expect((try? await fire(contentType: "image/png", server: [ValidationAction.json], call: [png]).get()) != nil)
        #expect((try? await fire(contentType: "application/json", server: [ValidationAction.json], call: [png]).get()) == nil)
    }

    @Test func responderGetsARefusedContentTypeInItsErrorHandler() async throws {
        let session = ScriptedSession(.status(200, headers: ["Content-Type": "text/html"], body: Data("<p>".utf8)))
        let log = ResponderLog()
        var server = ServerConfig(host: "api.test")
        server.actions = [ValidationAction.json]
        NetCall(server: server, endpoint: .get("/x"), responder: log.responder, callbackQueue: .immediate, firingFunction: session.firingFunction).fire()
        #expect(await log.waitForOutcome(timeout: 10).contains { if case .error(.unacceptableResponse) = $0 { return true } else { return false } })
    }
}
