import Foundation
import Testing
@_spi(Transport) import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `bytes()` over each transport's streams from the loopback server.
@Suite(.leavesNoSpillFiles) struct ResponseBytesIntegrationTests {
    private func call(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], over transport: TransportUnderTest) async throws -> NetCall {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        return NetCall(server: server, endpoint: .get(path, query: query), firingFunction: transport.firing)
    }

    @Test(arguments: TransportUnderTest.all, [false, true])
    func aBodyArrivesWholeAndInOrder(over transport: TransportUnderTest, chunked: Bool) async throws {
        let body = try await call("/stream/bytes", query: ["n": "3000000", "chunked": chunked ? "1" : "0"], over: transport).bytes()
        let head = try await body.head
        #expect(head.statusCode == 200)
        var received = Data()
        var chunks = 0
        for try await chunk in body {
            received.append(chunk)
            chunks += 1
        }
        #expect(received.count == 3_000_000)
        #expect(Self.isPattern(received, from: 0))
        #expect(chunks > 1, "the body arrived in pieces, not collected first")
    }

    @Test(arguments: TransportUnderTest.all)
    func aStatusOutside2xxThrowsWithItsBody(over transport: TransportUnderTest) async throws {
        let body = try await call("/status/503", over: transport).bytes()
        await #expect(throws: NetworkError.self) { _ = try await body.head }
        do {
            for try await _ in body { Issue.record("no chunk of an error body is streamed") }
            Issue.record("the loop throws")
        } catch {
            #expect(error.statusCode == 503)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func breakingOutOfTheLoopCancelsTheCall(over transport: TransportUnderTest) async throws {
        let body = try await call("/stream/drip", query: ["n": "50", "interval": "0.1"], over: transport).bytes()
        for try await _ in body { break }
        #expect(await eventually(within: 60) { body.task?.isFinished == true })
    }

    /// 12 MiB against a 4 MiB memory window: most of the body waits in the backlog file.
    @Test(arguments: TransportUnderTest.all)
    func aReaderThatFallsBehindLosesNothingAndReadsInOrder(over transport: TransportUnderTest) async throws {
        let body = try await call("/stream/bytes", query: ["n": "\(12 << 20)"], over: transport).bytes()
        _ = try await body.head
        #expect(await eventually(within: 60) { body.task?.isFinished == true }, "the whole body arrived while nobody read")
        var count = 0
        var isInOrder = true
        for try await chunk in body {
            isInOrder = isInOrder && Self.isPattern(chunk, from: count)
            count += chunk.count
        }
        #expect(count == 12 << 20)
        #expect(isInOrder)
    }

    /// The whole body arrives while the reader holds back, most of it into the backlog file; the
    /// reader then leaves: the file and its descriptors go with the loop, not at process exit.
    @Test(arguments: TransportUnderTest.all)
    func aReaderLeavingAfterTheWholeBodyArrivedLeavesNoSpillFile(over transport: TransportUnderTest) async throws {
        let baseline = SpillFiles.now()
        var spilled: Set<String> = []
        do {
            let body = try await call("/stream/bytes", query: ["n": "\(24 << 20)"], over: transport).bytes()
            for try await _ in body {
                #expect(await eventually(within: 20) { body.task?.isFinished == true }, "the transport finished the body")
                spilled = SpillFiles.now().descriptors.subtracting(baseline.descriptors)
                break
            }
        }
        #if os(Linux)
        // A spill file has no name once open: only `/proc/self/fd` shows it.
        #expect(!spilled.isEmpty, "the body went to a backlog file (open, without a name)")
        #endif
        let left = await SpillFiles.leftovers(since: baseline, within: 30)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    /// The route's bytes, `i % 251` at offset `i`, long enough to compare any chunk with memcmp.
    private static let pattern = Data((0..<(2 << 20) + 251).map { UInt8($0 % 251) })

    /// Whether `chunk` holds the route's bytes starting at body offset `offset`.
    private static func isPattern(_ chunk: Data, from offset: Int) -> Bool {
        var position = 0
        while position < chunk.count {
            let length = min(chunk.count - position, 2 << 20)
            let start = (offset + position) % 251
            let expected = pattern[start..<(start + length)]
            let actual = chunk[chunk.startIndex + position..<chunk.startIndex + position + length]
            guard actual == expected else { return false }
            position += length
        }
        return true
    }
}
