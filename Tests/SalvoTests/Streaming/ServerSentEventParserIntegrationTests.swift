import Foundation
import Testing
@_spi(Transport) @_spi(Testing) @testable import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parser on a real `text/event-stream` body from the loopback server, cut as a transport might.
@Suite struct ServerSentEventParserIntegrationTests {
    @Test(arguments: [1, 7, 16 * 1_024])
    func parsesTheLoopbackServersEventStream(chunkSize: Int) async throws {
        let base = try await LoopbackServer.baseURL()
        let url = try #require(URL(string: "\(base.absoluteString)/stream/sse/\(uniqueKey())?count=12&retry=2500"))
        let (body, _) = try await URLSession.shared.data(from: url)

        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in Chunking.fixed(Array(body), size: chunkSize) {
            events += try parser.parse(Data(chunk))
        }
        parser.finish()

        let expected = (1...12).map { number in
            ServerSentEvent(
                event: number.isMultiple(of: 3) ? "tick" : "message",
                data: number.isMultiple(of: 4) ? "{\"n\": \(number),\n\"split\": true}" : "{\"n\": \(number)}",
                id: "\(number)"
            )
        }
        #expect(events == expected)
        #expect(try events.map { try $0.decode(Tick.self).n } == Array(1...12))
        #expect(parser.lastEventID == "12")
        #expect(parser.reconnectionTime == 2.5)
    }

    private struct Tick: Decodable {
        let n: Int
    }
}
