import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryLogging
import Logging
import Salvo
import SalvoLogging
import SalvoTesting
import Testing

/// Issue 31: the logging action's lines through a swift-log `Logger`, with structured metadata.
@Suite struct LoggerActionTests {
    private static func logger() -> (Logger, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "salvo.tests") { _ in handler }
        logger.logLevel = .trace
        return (logger, handler)
    }

    @Test func aRequestIsLoggedAtDebugAndItsResponseAtInfoWithMetadata() async throws {
        let (logger, handler) = Self.logger()
        var server = ServerConfig(host: "api.test")
        server.collectsMetrics = true
        let call = NetCall(
            server: server, endpoint: .get("/users/42", query: ["api_key": "k-secret-value"]),
            actions: [LoggerAction(logger, lines: LoggingAction(redaction: .default.adding(queryKeys: ["api_key"])))],
            callbackQueue: .immediate, firingFunction: .mock(.text("hello"))
        )
        _ = try await call.response()
        let entries = handler.entries
        try #require(entries.count == 2)
        #expect(entries.map(\.level) == [.debug, .info])
        #expect(entries[0].message.description.hasPrefix("→ GET https://api.test/users/42?api_key="))
        #expect(entries[1].message.description.hasPrefix("← 200 GET"))
        let response = entries[1].metadata
        #expect(response["http.request.method"] == "GET")
        #expect(response["http.response.status_code"] == "200")
        #expect(response["server.address"] == "api.test")
        #expect(response["url.template"] == "/users/{id}")
        #expect(response["salvo.attempt"] == "1")
        #expect(response["salvo.bytes_received"] == "5")
        #expect(response["error.type"] == nil)
        let everything = entries.map { "\($0.message) \($0.metadata)" }.joined()
        #expect(!everything.contains("k-secret-value"))
    }

    @Test(arguments: [(404, Logger.Level.notice, "404"), (503, .error, "503")])
    func aFailedStatusIsLoggedAtALevelThatFollowsIt(status: Int, level: Logger.Level, errorType: String) async throws {
        let (logger, handler) = Self.logger()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/x"), actions: [LoggerAction(logger)],
            callbackQueue: .immediate, firingFunction: .mock(.status(status))
        )
        _ = try? await call.response()
        let response = try #require(handler.entries.last)
        #expect(response.level == level)
        #expect(response.metadata["error.type"] == .string(errorType))
    }

    @Test func aTransportFailureIsAnErrorNamingItsType() async throws {
        let (logger, handler) = Self.logger()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/x"), actions: [LoggerAction(logger)],
            callbackQueue: .immediate, firingFunction: .mock(.failure(.timedOut))
        )
        _ = try? await call.response()
        let response = try #require(handler.entries.last)
        #expect(response.level == .error)
        #expect(response.metadata["error.type"] == "timeout")
    }

    @Test func aLoggerAboveDebugSkipsTheRequestLine() async throws {
        var (logger, handler) = Self.logger()
        logger.logLevel = .info
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/x"), actions: [LoggerAction(logger)],
            callbackQueue: .immediate, firingFunction: .mock(.text("ok"))
        )
        _ = try await call.response()
        #expect(handler.entries.map(\.level) == [.info])
    }
}
