import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// One `NetCall` value fired at the loopback server and at a mock giving the same answer must
/// reach the same handlers in the same order, and the async API must return the same thing.
@Suite struct MockParityIntegrationTests {
    @Test func serverErrorTakesTheSameHandlersLiveAndMocked() async throws {
        var call = NetCall(server: try await ServerConfig.loopback(), endpoint: .get("/status/500"), callbackQueue: .immediate, firingFunction: .production)
        let live = await call.fireAndRecord()
        guard case .errorData(let body?) = live.dropLast().last else {
            Issue.record("unexpected live events \(live)")
            return
        }
        call.firingFunction = .mock(.data(body, status: 500))
        let mocked = await call.fireAndRecord()
        #expect(mocked == live)
        #expect(mocked == [.task, .response, .httpResponse(status: 500), .errorData(body), .serverError(status: 500)])
    }

    @Test func successTakesTheSameHandlersLiveAndMocked() async throws {
        var call = NetCall(server: try await ServerConfig.loopback(), endpoint: .get("/text"), callbackQueue: .immediate, firingFunction: .production)
        let live = await call.fireAndRecord()
        let liveResponse = try await call.response()
        call.firingFunction = .mock(.text("not json at all"))
        #expect(await call.fireAndRecord() == live)
        #expect(try await call.response().data == liveResponse.data)
    }

    @Test func decodingFailureIsTheSameLiveAndMocked() async throws {
        struct Thing: Decodable { let id: Int }
        var call = NetCall(server: try await ServerConfig.loopback(), endpoint: .get("/text"), callbackQueue: .immediate, firingFunction: .production)
        let live = await #expect(throws: NetworkError.self) { try await call.value(as: Thing.self) }
        call.firingFunction = .mock(.text("not json at all"))
        let mocked = await #expect(throws: NetworkError.self) { try await call.value(as: Thing.self) }
        #expect(live.map { ResponderEvent.error($0) } == mocked.map { ResponderEvent.error($0) })
        #expect(mocked?.responseBody == live?.responseBody)
    }
}
