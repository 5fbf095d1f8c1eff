import Foundation
import OpenAPIRuntime
import Salvo
import SalvoOpenAPI
import Testing

/// The loopback server's Server-Sent Events (httpbin has none), decoded by openapi-runtime's own
/// SSE support over Salvo's bytes and over `URLSessionTransport`, with the same events.
@Suite struct ServerSentEventsComparisonTests {
    @Test func eventsDecodeTheSameThroughBothTransports() async throws {
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL())
        let results = try await clients.both { client in
            let body = try await client.streamTicks(path: .init(key: uniqueKey()), query: .init(count: 8)).ok.body.textEventStream
            var events: [String] = []
            for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Tick.self) {
                events.append("\(event.id ?? "-") \(event.event ?? "message") \(event.data?.n ?? 0) \(event.data?.split ?? false)")
            }
            return events
        }
        #expect(results.salvo.count == 8)
        #expect(results.salvo[3] == "4 message 4 true")
        #expect(results.salvo[2] == "3 tick 3 false")
        #expect(results.salvo == results.urlSession)
    }
}
