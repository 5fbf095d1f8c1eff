import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @_spi(Testing) @testable import Salvo
import SalvoTesting

/// Records real streams from the loopback server, then replays them offline with the same chunk
/// boundaries and the recorded timing.
@Suite(.leavesNoSpillFiles) struct StreamRecordReplayIntegrationTests {
    /// Records `path` (with its query) from the loopback server as a streamed exchange; returns
    /// the request, what the caller received live, and the fixture written.
    static func record(_ path: String, in folder: TemporaryFolder, over transport: TransportUnderTest) async throws -> (URLRequest, ReceiverLog, Fixture) {
        let base = try await LoopbackServer.baseURL()
        let request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
        let live = ReceiverLog()
        _ = RecordingSession(wrapping: transport.session, to: folder.url).start(request, options: live.options, receiver: live)
        #expect(await live.waitForFinish(timeout: 20))
        #expect(live.reports.last == .finish(nil))
        let name = try #require(try folder.fileNames().first)
        return (request, live, try Fixture.load(from: folder.url.appendingPathComponent(name)))
    }

    /// Replays `request` from `folder` on a test clock; returns what the caller received and when.
    static func replay(_ request: URLRequest, from folder: TemporaryFolder) async -> ReceiverLog {
        let time = TestClock()
        let replayed = ReceiverLog(clock: time)
        _ = ReplaySession(from: folder.url, clock: time.clock).start(request, options: replayed.options, receiver: replayed)
        await time.runUntilFinished(replayed)
        return replayed
    }

    @Test(arguments: TransportUnderTest.all)
    func aChunkedStreamReplaysWithTheSameBoundariesAndTiming(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let (request, live, fixture) = try await Self.record("/stream/chunked?chunks=4&size=64&delay=0.05", in: folder, over: transport)
        let chunks = try #require(fixture.response.chunks)
        #expect(live.body.count == 256)
        #expect(chunks.map(\.bytes) == live.chunks.map(\.count))
        #expect(live.chunks.count >= 4, "the server paused between chunks, so they arrived apart")
        // The times are when the chunks reached the caller: a busy machine can bunch them up, so
        // only their order is certain, and replay must give back exactly these.
        #expect(chunks.map(\.ms) == chunks.map(\.ms).sorted())

        let replayed = await Self.replay(request, from: folder)
        #expect(replayed.chunks == live.chunks)
        // In the fixture's own unit: the test clock adds the waits between chunks, so a time can
        // come back as 0.43999999999999995 s for a recorded 440 ms.
        #expect(replayed.chunkTimes.map { Int(($0 * 1_000).rounded()) } == chunks.map(\.ms))
        #expect(replayed.head?.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(replayed.violations.isEmpty)
    }

    @Test(arguments: TransportUnderTest.all)
    func anEventStreamReplaysAsTheSameEvents(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let (request, live, fixture) = try await Self.record("/stream/sse/\(uniqueKey())?count=6&delay=0.02&retry=1500", in: folder, over: transport)
        #expect(fixture.response.body?.text?.contains("id: 6\n") == true, "the fixture keeps the events as readable text")
        #expect(fixture.response.chunks?.map(\.bytes) == live.chunks.map(\.count))

        let replayed = await Self.replay(request, from: folder)
        #expect(replayed.chunks == live.chunks)
        func events(_ chunks: [Data]) throws -> [ServerSentEvent] {
            var parser = ServerSentEventParser()
            return try chunks.flatMap { try parser.parse($0) }
        }
        let liveEvents = try events(live.chunks)
        #expect(liveEvents.map(\.id) == (1...6).map { "\($0)" })
        #expect(try events(replayed.chunks) == liveEvents)
        #expect(replayed.head?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/event-stream") == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func aStreamedCallThroughARecordingStillStreamsAndReplaysOffline(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let server = try await ServerConfig.loopback()
        let endpoint = Endpoint.get("/stream/lines", query: ["count": "4", "delay": "0.03"])
        let live = ReceiverLog()
        var call = NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .recording(to: folder.url, through: transport.session))
        _ = call.firingFunction(call, .bodyStream(live))
        #expect(await live.waitForFinish(timeout: 20))
        #expect(live.body == Data("line 1\nline 2\nline 3\nline 4\n".utf8))
        #expect(live.chunks.count >= 4, "each line reached the call as the server sent it")

        let replayed = ReceiverLog()
        call.firingFunction = .replaying(from: folder.url, clock: .immediate)
        _ = call.firingFunction(call, .bodyStream(replayed))
        #expect(await replayed.waitForFinish())
        #expect(replayed.chunks == live.chunks)
        #expect(try await call.response().data == live.body, "a whole-body call replays the same body")
    }
}
