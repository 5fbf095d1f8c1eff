import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @_spi(Testing) @testable import Salvo
import SalvoTesting

/// Recording keeps a stream's chunks and their timing; replay gives them back on the clock.
@Suite struct StreamFixtureTests {
    static let url = URL(string: "https://api.example.com/v1/feed")!
    static let events = [
        ServerSentEvent(event: "tick", data: "{\"n\": 1}", id: "1"),
        ServerSentEvent(event: "tick", data: "{\"n\": 2}", id: "2"),
        ServerSentEvent(data: "bye", id: "3"),
    ]

    /// A stream fixture written by hand: "alpha beta gamma" in three chunks.
    static let handWritten = #"""
    {"version": 1,
     "request": {"method": "GET", "url": "https://api.example.com/v1/feed", "headers": {}},
     "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "body": {"text": "alpha beta gamma"},
                  "chunks": [{"bytes": 6, "ms": 0}, {"bytes": 5, "ms": 250}, {"bytes": 5, "ms": 1000}]}}
    """#

    static func fixtureFile(in folder: TemporaryFolder) throws -> URL {
        let name = try #require(try folder.fileNames().first)
        return folder.url.appendingPathComponent(name)
    }

    @Test func recordingAStreamedExchangePassesChunksOnAsTheyArrive() async throws {
        let folder = try TemporaryFolder()
        let time = TestClock()
        let base = MockSession(clock: time.clock) { _ in .events(Self.events, every: 0.1) }
        let log = ReceiverLog(clock: time)
        _ = RecordingSession(wrapping: base, to: folder.url).start(URLRequest(url: Self.url), options: log.options, receiver: log)
        #expect(await time.waitForSleepers(1))
        #expect(log.reports == [.head(status: 200), .chunk(ServerSentEvent.eventStream(of: Self.events)[0])], "the first event is through before the rest exists")
        await time.runUntilFinished(log)
        #expect(log.chunks == ServerSentEvent.eventStream(of: Self.events))
        #expect(log.reports.last == .finish(nil))

        let fixture = try Fixture.load(from: try Self.fixtureFile(in: folder))
        #expect(fixture.response.chunks?.map(\.bytes) == log.chunks.map(\.count))
        #expect(fixture.response.body?.text?.contains("event: tick\nid: 1\ndata: {\"n\": 1}\n\n") == true, "an event stream stays readable")
    }

    @Test func aWholeBodyRecordingKeepsNoChunks() async throws {
        let folder = try TemporaryFolder()
        let base = MockSession(clock: .immediate) { _ in .chunks([Data("a".utf8), Data("b".utf8)], every: 0.1) }
        let log = ReceiverLog(streaming: false)
        _ = RecordingSession(wrapping: base, to: folder.url).start(URLRequest(url: Self.url), options: log.options, receiver: log)
        #expect(await log.waitForFinish())
        let text = try String(contentsOf: try Self.fixtureFile(in: folder), encoding: .utf8)
        #expect(!text.contains("chunks"))
        #expect(text.contains(#""text" : "ab""#))
    }

    @Test func replayGivesTheRecordedChunksAtTheRecordedTimes() async throws {
        let folder = try TemporaryFolder()
        let request = URLRequest(url: Self.url)
        try Data(Self.handWritten.utf8).write(to: folder.url.appendingPathComponent(FixtureName.fileName(for: request, options: FixtureOptions())))
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        _ = ReplaySession(from: folder.url, clock: time.clock).start(request, options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.chunks.map { String(decoding: $0, as: UTF8.self) } == ["alpha ", "beta ", "gamma"])
        #expect(log.chunkTimes == [0, 0.25, 1])

        let call = NetCall(server: ServerConfig(host: "api.example.com", basePath: "v1"), endpoint: .get("/feed"), callbackQueue: .immediate,
                           firingFunction: .replaying(from: folder.url, clock: .immediate))
        #expect(try await call.response().data == Data("alpha beta gamma".utf8), "a whole-body call gets the chunks joined")
    }

    @Test func aSingleFixtureAnswerStreamsItsChunksToo() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("feed.json")
        try Data(Self.handWritten.utf8).write(to: file)
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        _ = MockSession(clock: time.clock) { _ in .fixture(file) }.start(URLRequest(url: Self.url), options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.chunks.map(\.count) == [6, 5, 5])
        #expect(log.chunkTimes == [0, 0.25, 1])
    }

    @Test func chunksThatMissTheBodyAreMadeToCoverIt() {
        let pacing = BodyPacing(length: 10, chunks: [.init(bytes: 4, time: 0), .init(bytes: 0, time: 0.5), .init(bytes: 3, time: 0.2)], bandwidth: nil)
        #expect(Array(pacing) == [.init(wait: 0, range: 0..<4), .init(wait: 0.2, range: 4..<10)], "no empty chunk, none back in time, the rest at the end")
        let short = BodyPacing(length: 3, chunks: [.init(bytes: 2, time: 0), .init(bytes: 5, time: 1)], bandwidth: nil)
        #expect(Array(short).map(\.range) == [0..<2, 2..<3])
    }

    @Test func aCassetteRecordsAStreamOnceAndReplaysItTheSameWay() async throws {
        let folder = try TemporaryFolder()
        let base = MockSession(clock: .immediate) { _ in .events(Self.events, every: 0.2) }
        let cassette = Cassette(at: folder.url, mode: .recordMissing, through: base, clock: .immediate, environment: [:])
        let recorded = ReceiverLog(), replayed = ReceiverLog()
        _ = cassette.start(URLRequest(url: Self.url), options: recorded.options, receiver: recorded)
        #expect(await recorded.waitForFinish())
        _ = Cassette(at: folder.url, mode: .replay, through: ScriptedSession(.failure(.notConnectedToInternet)), clock: .immediate, environment: [:])
            .start(URLRequest(url: Self.url), options: replayed.options, receiver: replayed)
        #expect(await replayed.waitForFinish())
        #expect(replayed.chunks == recorded.chunks)
        #expect(replayed.chunks.count == Self.events.count)
        var parser = ServerSentEventParser()
        #expect(try parser.parse(replayed.body) == Self.events)
    }

    @Test func chunksSurviveBothFixtureReaders() throws {
        let data = Data(Self.handWritten.utf8)
        let parsed = try #require(Fixture(parsing: data))
        #expect(parsed == (try JSONDecoder().decode(Fixture.self, from: data)))
        #expect(parsed.response.chunks == [.init(bytes: 6, ms: 0), .init(bytes: 5, ms: 250), .init(bytes: 5, ms: 1_000)])
        #expect(Fixture(parsing: try parsed.encoded()) == parsed)
    }

    @Test(arguments: [
        (#"[{"bytes": -1, "ms": 0}]"#, "neither may be negative"),
        (#"[{"bytes": 3}]"#, "is not a Salvo fixture"),
        (#"{"bytes": 3, "ms": 0}"#, "is not a Salvo fixture"),
    ])
    func badChunksAreRefusedNamingTheFile(chunks: String, message: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("feed.json")
        let text = Self.handWritten.replacingOccurrences(
            of: #"[{"bytes": 6, "ms": 0}, {"bytes": 5, "ms": 250}, {"bytes": 5, "ms": 1000}]"#, with: chunks
        )
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: NetworkError.self) { try Fixture.load(from: file) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error?.description))")
        #expect(error?.description.contains(file.path) == true)
    }

    @Test func aSecretEchoedInAStreamIsRedactedAndTheChunksFollowTheNewLengths() async throws {
        let folder = try TemporaryFolder()
        let events = [ServerSentEvent(data: "hello"), ServerSentEvent(data: "your token is t0ken-123"), ServerSentEvent(data: "bye")]
        let base = MockSession(clock: .immediate) { _ in .events(events, every: 0.1) }
        var request = URLRequest(url: Self.url)
        request.setValue("Bearer t0ken-123", forHTTPHeaderField: "Authorization")
        let log = ReceiverLog()
        _ = RecordingSession(wrapping: base, to: folder.url).start(request, options: log.options, receiver: log)
        try #require(await log.waitForFinish())
        #expect(log.body.count > 0 && String(decoding: log.body, as: UTF8.self).contains("t0ken-123"), "the caller still gets the real stream")

        let fixture = try Fixture.load(from: try Self.fixtureFile(in: folder))
        let body = try #require(fixture.response.body?.data)
        #expect(!String(decoding: body, as: UTF8.self).contains("t0ken"))
        let chunks = try #require(fixture.response.chunks)
        #expect(chunks.map(\.bytes).reduce(0, +) == body.count)
        try #require(chunks.count == 3 && log.chunks.count == 3, "one chunk per event, recorded and received")
        #expect(chunks[0].bytes == log.chunks[0].count && chunks[2].bytes == log.chunks[2].count, "chunks without the secret keep their size")

        let replayed = ReceiverLog()
        _ = ReplaySession(from: folder.url, clock: .immediate).start(request, options: replayed.options, receiver: replayed)
        try #require(await replayed.waitForFinish())
        try #require(replayed.chunks.count == 3, "the replay streams one chunk per event")
        var parser = ServerSentEventParser()
        #expect(try parser.parse(replayed.chunks[1]).map(\.data) == ["your token is <redacted>"], "the redacted event is whole in its chunk")
    }

    @Test func boundariesCutThroughASecretAreScaledToTheRedactedBody() {
        let body = Data("abc secret def".utf8)
        let chunks: [Fixture.Chunk] = [.init(bytes: 7, ms: 0), .init(bytes: 7, ms: 10)]  // "abc sec" | "ret def"
        let redact = { (data: Data) in Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "secret", with: "<redacted>").utf8) }
        let redacted = redact(body)
        let mapped = Fixture.chunks(chunks, of: body, redactedTo: redacted, by: redact)
        #expect(mapped.map(\.bytes).reduce(0, +) == redacted.count)
        #expect(mapped.map(\.ms) == [0, 10])
        #expect(Fixture.chunks(chunks, of: body, redactedTo: body, by: { $0 }) == chunks)
    }

    @Test func anExportedStreamImportsWithItsChunks() throws {
        let folder = try TemporaryFolder(), again = try TemporaryFolder()
        let request = URLRequest(url: Self.url)
        try Data(Self.handWritten.utf8).write(to: folder.url.appendingPathComponent(FixtureName.fileName(for: request, options: FixtureOptions())))
        let archive = try HTTPArchive.exportData(fixturesIn: folder.url)
        #expect(String(decoding: archive, as: UTF8.self).contains(#""_chunks""#))
        let written = try HTTPArchive.importFixtures(from: archive, into: again.url)
        let imported = try Fixture.load(from: again.url.appendingPathComponent(try #require(written.first)))
        #expect(imported.response.chunks == [.init(bytes: 6, ms: 0), .init(bytes: 5, ms: 250), .init(bytes: 5, ms: 1_000)])
    }
}
