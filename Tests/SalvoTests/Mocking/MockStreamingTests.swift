import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @_spi(Testing) @testable import Salvo
import SalvoTesting

/// Mock answers that arrive over time: streamed bodies, bandwidth, cancellation mid-stream.
@Suite struct MockStreamingTests {
    static let url = URL(string: "https://api.example.com/v1/feed")!

    static func request(_ method: String = "GET", body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    static let abc = [Data("alpha ".utf8), Data("beta ".utf8), Data("gamma".utf8)]

    @Test func chunksArriveInOrderAtTheirTimesOnTheClock() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let session = MockSession(clock: time.clock) { _ in .chunks(Self.abc, every: 0.1) }
        _ = session.start(Self.request(), options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.reports == [.head(status: 200)] + Self.abc.map { .chunk($0) } + [.finish(nil)])
        #expect(log.chunkTimes == [0, 0.1, 0.2])
        #expect(log.head?.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(log.violations.isEmpty)
    }

    @Test func latencyComesBeforeTheHeadAndTheChunksKeepTheirSpacing() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let session = MockSession(clock: time.clock) { _ in .chunks(Self.abc, every: 0.1).delayed(by: 0.5) }
        _ = session.start(Self.request(), options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.times.first == 0.5, "the head")
        #expect(log.chunkTimes.map { ($0 * 1_000).rounded() } == [500, 600, 700])
    }

    @Test func aWholeBodyCallGetsTheChunksJoined() async throws {
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/feed"), callbackQueue: .immediate,
                           firingFunction: .mock(.chunks(Self.abc, every: 0.2), clock: .immediate))
        #expect(try await call.response().data == Data("alpha beta gamma".utf8))
    }

    @Test func aStreamedCallReceivesEachChunkAsItArrives() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/feed"), callbackQueue: .immediate,
                           firingFunction: .mock(.lines(["one", "two"], every: 1), clock: time.clock))
        _ = call.firingFunction(call, .bodyStream(log))
        await time.runUntilFinished(log)
        #expect(log.chunks == [Data("one\n".utf8), Data("two\n".utf8)])
        #expect(log.chunkTimes == [0, 1])
        #expect(log.reports.last == .finish(nil))
    }

    @Test func linesAndJSONLinesEndEachItemWithALineFeed() throws {
        struct Tick: Codable, Equatable { let n: Int }
        let request = Self.request()
        let lines = try MockResponse.lines(["a", "b"], every: 0).resolved(for: request)
        #expect(lines.body == Data("a\nb\n".utf8))
        #expect(lines.chunks?.map(\.bytes) == [2, 2])
        #expect(lines.head.value(forField: "Content-Type") == "text/plain; charset=utf-8")
        let json = try MockResponse.jsonLines([Tick(n: 1), Tick(n: 2)], every: 0.5).resolved(for: request)
        #expect(json.body == Data("{\"n\":1}\n{\"n\":2}\n".utf8))
        #expect(json.chunks?.map(\.time) == [0, 0.5])
        #expect(json.head.value(forField: "Content-Type") == "application/x-ndjson")
    }

    @Test func jsonLinesRefuseAnEncoderThatWritesSeveralLines() {
        let pretty = JSONEncoder()
        pretty.outputFormatting = .prettyPrinted
        let answer = MockResponse.jsonLines([["a": 1]], every: 0, encoder: pretty)
        #expect(throws: NetworkError.self) { try answer.resolved(for: Self.request()) }
    }

    @Test func cannedEventsReadBackAsTheSameEvents() throws {
        let events = [
            ServerSentEvent(data: "plain"),
            ServerSentEvent(event: "price", data: "{\"eur\": 101}", id: "1"),
            ServerSentEvent(event: "price", data: "line one\nline two\n\n  indented", id: "1", retry: 2.5),
            ServerSentEvent(data: "", id: "7"),
            ServerSentEvent(event: "reset", data: "no id any more"),
        ]
        let answer = try MockResponse.events(events, every: 1).resolved(for: Self.request())
        #expect(answer.head.value(forField: "Content-Type") == "text/event-stream; charset=utf-8")
        #expect(answer.chunks?.count == events.count, "one chunk per event")
        var parser = ServerSentEventParser()
        let parsed = try parser.parse(answer.body)
        #expect(parsed == events)
        #expect(String(decoding: answer.body.prefix(13), as: UTF8.self) == "data: plain\n\n")
    }

    @Test func eventFieldsCannotBreakOutOfTheirLine() throws {
        let sneaky = ServerSentEvent(event: "a\nid: 666", data: "x", id: "1\r2\03")
        let text = String(decoding: ServerSentEvent.eventStream(of: [sneaky])[0], as: UTF8.self)
        #expect(text == "event: aid: 666\nid: 123\ndata: x\n\n")
    }

    @Test func bandwidthPacesTheBodyInTicks() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let body = Data(repeating: 7, count: 1_000)
        let session = MockSession(conditions: NetworkConditions(bandwidth: 4_000...4_000), clock: time.clock) { _ in .data(body) }
        _ = session.start(Self.request(), options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.chunks.map(\.count) == [200, 200, 200, 200, 200], "4,000 B/s carries 200 bytes a tick")
        #expect(log.chunkTimes.map { ($0 * 1_000).rounded() } == [50, 100, 150, 200, 250])
        #expect(log.body == body)
    }

    @Test func bandwidthPacesTheUploadBeforeTheAnswer() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let session = MockSession(conditions: NetworkConditions(bandwidth: 4_000...4_000), clock: time.clock) { _ in .status(201) }
        _ = session.start(Self.request("POST", body: Data(count: 500)), options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.reports == [.sent(200, of: 500), .sent(400, of: 500), .sent(500, of: 500), .head(status: 201), .finish(nil)])
        #expect(log.times.map { ($0 * 1_000).rounded() } == [50, 100, 125, 125, 125])
    }

    @Test func aBodyStreamedFromAFileIsReportedSentAtItsLength() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mock-upload-\(UUID().uuidString).bin")
        try Data(count: 1_234).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let call = NetCall(server: ServerConfig(scheme: "https", host: "api.example"), endpoint: Endpoint(method: .put, path: "/photo", body: .file(file)))
        let request = try call.urlRequest()
        let log = ReceiverLog()
        _ = MockSession { _ in .status(204) }.start(request, options: log.options, receiver: log)
        #expect(log.reports == [.sent(1_234, of: 1_234), .head(status: 204), .finish(nil)])
    }

    @Test func anUploadWithoutABandwidthIsReportedSentAtOnce() {
        let log = ReceiverLog()
        _ = MockSession { _ in .status(204) }.start(Self.request("PUT", body: Data(count: 42)), options: log.options, receiver: log)
        #expect(log.reports == [.sent(42, of: 42), .head(status: 204), .finish(nil)])
    }

    @Test func aStreamSlowerThanTheBandwidthKeepsItsOwnPace() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let session = MockSession(conditions: NetworkConditions(bandwidth: 1_000_000...1_000_000), clock: time.clock) { _ in
            .chunks(Self.abc, every: 1)
        }
        _ = session.start(Self.request(), options: log.options, receiver: log)
        await time.runUntilFinished(log)
        #expect(log.chunks == Self.abc)
        #expect(log.chunkTimes.map { ($0 * 10).rounded() } == [0, 10, 20])
    }

    @Test func theSameSeedDrawsTheSameBandwidthsAndOtherSeedsDoNot() async throws {
        func chunkSizes(seed: UInt64) async -> [[Int]] {
            let conditions = NetworkConditions(bandwidth: 2_000...200_000, seed: seed)
            let session = MockSession(conditions: conditions, clock: .immediate) { _ in .data(Data(count: 20_000)) }
            var sizes: [[Int]] = []
            for _ in 0..<4 {
                let log = ReceiverLog()
                _ = session.start(Self.request(), options: log.options, receiver: log)
                _ = await log.waitForFinish()
                sizes.append(log.chunks.map(\.count))
            }
            return sizes
        }
        let first = await chunkSizes(seed: 11)
        #expect(await chunkSizes(seed: 11) == first)
        #expect(await chunkSizes(seed: 12) != first)
        #expect(first.allSatisfy { $0.reduce(0, +) == 20_000 })
        #expect(Set(first.map(\.first)).count > 1, "each answer draws its own bandwidth")
    }

    @Test func conditionsWithoutABandwidthDrawTwoValuesAsBefore() {
        let conditions = NetworkConditions(latency: 0...1, failureRate: 0.5, seed: 3)
        var generator = SplitMix64(seed: 3), reference = SplitMix64(seed: 3)
        for _ in 0..<20 {
            let draw = conditions.draw(using: &generator)
            #expect(draw.delay == reference.nextUnitInterval())
            #expect(draw.fails == (reference.nextUnitInterval() < 0.5))
            #expect(draw.bandwidth == nil)
        }
    }

    @Test func slow3GIsSlowButReliable() {
        let conditions = NetworkConditions.slow3G(seed: 1)
        var generator = SplitMix64(seed: 1)
        let draws = (0..<50).map { _ in conditions.draw(using: &generator) }
        #expect(draws.allSatisfy { !$0.fails && (0.4...0.8).contains($0.delay) && (40_000...60_000).contains($0.bandwidth ?? 0) })
    }

    @Test func cancellingMidStreamFinishesOnceAndSendsNothingAfter() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let session = MockSession(clock: time.clock) { _ in .chunks(Self.abc, every: 0.1) }
        let task = session.start(Self.request(), options: log.options, receiver: log)
        #expect(await time.waitForSleepers(1), "the first chunk is out; the second waits")
        task.cancel()
        task.cancel()
        time.advance(by: 1)
        #expect(await log.waitForFinish())
        // Nothing to await for "nothing after the end": give a late chunk or wait time to show.
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(log.reports == [.head(status: 200), .chunk(Self.abc[0]), .finish(.cancelled)])
        #expect(log.violations.isEmpty)
        #expect(time.sleeperCount == 0, "the wait for the next chunk was dropped")
    }

    @Test func cancellingFromInsideAChunkReportFinishesRightAfterIt() async throws {
        let time = TestClock()
        let task = Locked<(any NetworkSessionTask)?>(nil)
        let log = ReceiverLog(clock: time) { number in
            if number == 2 { task.withLock { $0 }?.cancel() }
        }
        let session = MockSession(clock: time.clock) { _ in .chunks(Self.abc, every: 0.1) }
        let started = session.start(Self.request(), options: log.options, receiver: log)
        task.withLock { $0 = started }
        await time.runUntilFinished(log)
        #expect(log.reports == [.head(status: 200), .chunk(Self.abc[0]), .chunk(Self.abc[1]), .finish(.cancelled)])
        #expect(log.violations.isEmpty, "the end waits for the chunk report to return")
    }

    @Test func cancellingBeforeTheWorkStartsFinishesAtOnce() async throws {
        let time = TestClock()
        let log = ReceiverLog(clock: time)
        let session = MockSession(conditions: NetworkConditions(bandwidth: 10...10), clock: time.clock) { _ in .text("slow") }
        session.start(Self.request(), options: log.options, receiver: log).cancel()
        #expect(log.reports == [.finish(.cancelled)])
        try await Task.sleep(nanoseconds: 20_000_000)
        time.runToEnd()
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(log.reports == [.finish(.cancelled)])
    }

    @Test(arguments: [NetworkConditions(), NetworkConditions(bandwidth: 100...100)])
    func aHeadRequestGetsTheHeadAndNoBody(conditions: NetworkConditions) async throws {
        let log = ReceiverLog()
        let session = MockSession(conditions: conditions, clock: .immediate) { _ in .chunks(Self.abc, every: 0.1) }
        _ = session.start(Self.request("HEAD"), options: log.options, receiver: log)
        #expect(await log.waitForFinish())
        #expect(log.reports == [.head(status: 200), .finish(nil)])
    }

    @Test func aDrawnFailureEndsTheExchangeInsteadOfTheHead() async throws {
        let log = ReceiverLog()
        let conditions = NetworkConditions(bandwidth: 1_000...1_000, failureRate: 1, failure: .networkConnectionLost)
        let session = MockSession(conditions: conditions, clock: .immediate) { _ in .chunks(Self.abc, every: 0.1) }
        _ = session.start(Self.request("POST", body: Data(count: 60)), options: log.options, receiver: log)
        #expect(await log.waitForFinish())
        #expect(log.reports == [.sent(50, of: 60), .sent(60, of: 60), .finish(.networkConnectionLost)])
    }

    @Test func aRedirectIsFollowedToAStreamedAnswer() async throws {
        let log = ReceiverLog()
        let session = MockSession(clock: .immediate) { request in
            request.url?.path == "/old" ? .redirect(to: "/new") : .chunks(Self.abc, every: 0.1)
        }
        _ = session.start(URLRequest(url: URL(string: "https://api.example.com/old")!), options: log.options, receiver: log)
        #expect(await log.waitForFinish())
        #expect(log.head?.url?.path == "/new")
        #expect(log.chunks == Self.abc)
    }

    @Test func anAnswerWithoutDelayIsGivenBeforeStartReturns() {
        let log = ReceiverLog()
        let task = MockSession { _ in .text("now") }.start(Self.request(), options: log.options, receiver: log)
        #expect(log.reports == [.head(status: 200), .chunk(Data("now".utf8)), .finish(nil)])
        #expect(task is FinishedSessionTask)
    }
}
