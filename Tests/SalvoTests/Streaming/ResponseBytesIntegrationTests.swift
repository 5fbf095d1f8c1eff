import Foundation
import Testing
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `bytes()` over real URLSession streams from the loopback server.
@Suite struct ResponseBytesIntegrationTests {
    private func call(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:]) async throws -> NetCall {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        return NetCall(server: server, endpoint: .get(path, query: query))
    }

    @Test(arguments: [false, true])
    func aBodyArrivesWholeAndInOrder(chunked: Bool) async throws {
        let body = try await call("/stream/bytes", query: ["n": "3000000", "chunked": chunked ? "1" : "0"]).bytes()
        let head = try await body.response
        #expect(head.statusCode == 200)
        var received = Data()
        var chunks = 0
        for try await chunk in body {
            received.append(chunk)
            chunks += 1
        }
        #expect(received.count == 3_000_000)
        #expect(received.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        #expect(chunks > 1, "the body arrived in pieces, not collected first")
    }

    @Test func theHeadAndEachChunkArriveAsTheServerSendsThem() async throws {
        // Five bytes 0.4 s apart: delivered as they come, they spread over about 1.6 s.
        let body = try await call("/stream/drip", query: ["n": "5", "interval": "0.4"]).bytes()
        _ = try await body.response
        let headAt = Date()
        var arrivals: [Date] = []
        for try await chunk in body {
            arrivals += Array(repeating: Date(), count: chunk.count)
        }
        #expect(arrivals.count == 5)
        let last = try #require(arrivals.last)
        #expect(last.timeIntervalSince(headAt) > 1.2, "the head came before the body was complete")
        #expect(last.timeIntervalSince(try #require(arrivals.first)) > 1.2, "chunks were not collected first")
    }

    @Test func aStatusOutside2xxThrowsWithItsBody() async throws {
        let body = try await call("/status/503").bytes()
        await #expect(throws: NetworkError.self) { _ = try await body.response }
        do {
            for try await _ in body { Issue.record("no chunk of an error body is streamed") }
            Issue.record("the loop throws")
        } catch {
            #expect(error.statusCode == 503)
        }
    }

    @Test func breakingOutOfTheLoopCancelsTheCall() async throws {
        let body = try await call("/stream/drip", query: ["n": "50", "interval": "0.1"]).bytes()
        for try await _ in body { break }
        try await Task.sleep(for: .milliseconds(100))
        #expect(body.task.isFinished)
    }

    @Test func aSlowReaderKeepsMemoryBoundedAndLosesNothing() async throws {
        let body = try await call("/stream/bytes", query: ["n": "\(40 << 20)"]).bytes()
        try await Task.sleep(for: .seconds(1)) // let the whole body arrive while nobody reads
        var count = 0
        var isInOrder = true
        for try await chunk in body {
            for (offset, byte) in chunk.enumerated() where byte != UInt8((count + offset) % 251) {
                isInOrder = false
                break
            }
            count += chunk.count
        }
        #expect(count == 40 << 20)
        #expect(isInOrder)
    }
}
