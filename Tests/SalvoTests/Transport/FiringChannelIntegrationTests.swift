import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo
import SalvoTesting

/// Issue 28: a firing function that wraps a real transport hears every way of firing end once,
/// with the outcome's error, against the loopback server.
@Suite struct FiringChannelIntegrationTests {
    @Test(arguments: TransportUnderTest.all)
    func aWrappingFiringFunctionHearsEachWayOfFiringEndOnce(over transport: TransportUnderTest) async throws {
        let ends = Locked<[Int?]>([])
        let base = transport.firing
        let watching = FiringFunction { call, channel in
            base(call, channel.onFinish { error in ends.withLock { $0.append(error?.statusCode) } })
        }
        let server = try await ServerConfig.loopback()
        let echo = NetCall(server: server, endpoint: .get("/echo/channel"), callbackQueue: .immediate, firingFunction: watching)
        let missing = NetCall(server: server, endpoint: .get("/status/404"), callbackQueue: .immediate, firingFunction: watching)

        let echoed = try await withTimeout { try await echo.value(as: Echo.self) }
        #expect(echoed.path == "/echo/channel")
        let streamed = try await withTimeout { try await echo.bytes().reduce(into: Data()) { $0.append($1) } }
        #expect(try JSONDecoder().decode(Echo.self, from: streamed).path == "/echo/channel")
        let log = ResponderLog()
        var logged = missing
        logged.responder = log.responder
        logged.fire()
        _ = await log.waitForOutcome()
        #expect(log.outcomeCount == 1)
        #expect(ends.withLock { $0 } == [nil, nil, 404])
    }
}
