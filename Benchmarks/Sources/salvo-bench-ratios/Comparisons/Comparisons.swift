import Foundation
import SalvoWorkloads

/// The comparisons the spec asks for (issue 6), each Salvo side next to its baseline.
enum Comparisons {
    /// Benchmarks 1–3: in-process work, `batch` operations per timed batch.
    static func inProcess(batch: Int) throws -> [Comparison] {
        let building = RequestBuilding()
        try building.checkEquivalence()
        let firing = MockFiring()
        try firing.checkDelivery()
        let pipeline = MockFiring(firingFunction: .session(CannedSession(body: MockFiring.body)))
        try pipeline.checkDelivery()
        let decoding = MockDecoding()
        try decoding.checkEquivalence()
        let cannedDecoding = MockDecoding(firingFunction: .session(CannedSession(body: MockDecoding.body)))
        try cannedDecoding.checkEquivalence()
        return [
            Comparison(
                name: "1 request building", baselineName: "URLComponents by hand",
                target: .ratio(atMost: 1.0, aim: 0.5), judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for id in 0..<batch { sink(try building.salvo(id: id)) } },
                baseline: { for id in 0..<batch { sink(building.baseline(id: id)) } }
            ),
            Comparison(
                name: "2 mock fire to dataHandler", baselineName: "configuring the call (builds its request)",
                target: .extraNanoseconds(atMost: 1_000), judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for _ in 0..<batch { firing.fire() } },
                baseline: { for _ in 0..<batch { sink(firing.configure()) } }
            ),
            Comparison(
                name: "2b same, canned session (pipeline only)", baselineName: "configuring the call (builds its request)",
                target: .extraNanoseconds(atMost: 1_000), judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for _ in 0..<batch { pipeline.fire() } },
                baseline: { for _ in 0..<batch { sink(pipeline.configure()) } }
            ),
            Comparison(
                name: "3 mock fire + decode", baselineName: "JSONDecoder alone",
                target: .ratio(atMost: 1.3), judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for _ in 0..<batch { decoding.salvo() } },
                baseline: { for _ in 0..<batch { sink(try decoding.baseline()) } }
            ),
            Comparison(
                name: "3c same, a new call per firing (request built each time)", baselineName: "JSONDecoder alone",
                target: .reportedOnly, judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for _ in 0..<batch { decoding.salvoNewCall() } },
                baseline: { for _ in 0..<batch { sink(try decoding.baseline()) } }
            ),
            Comparison(
                name: "3b same, canned session (pipeline only)", baselineName: "JSONDecoder alone",
                target: .ratio(atMost: 1.3), judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for _ in 0..<batch { cannedDecoding.salvo() } },
                baseline: { for _ in 0..<batch { sink(try cannedDecoding.baseline()) } }
            ),
        ]
    }

    /// Benchmark 4: one walk of all pages per batch (the per-operation column is per page).
    static func paging(_ walk: PagerWalk) async throws -> [Comparison] {
        try await walk.checkEquivalence()
        return [
            Comparison(
                name: "4 Pager, 1,000 pages, .object()", baselineName: "by hand: value(as:) per page",
                target: .ratio(atMost: 1.2), judged: .processCPU, operationsPerBatch: walk.pageCount,
                salvo: { sink(try await walk.pager()) },
                baseline: { sink(try await walk.byHand()) }
            ),
            Comparison(
                name: "4b Pager, 1,000 pages, .decoding(struct)", baselineName: "by hand: value(as:) per page",
                target: .ratio(atMost: 1.2), judged: .processCPU, operationsPerBatch: walk.pageCount,
                salvo: { sink(try await walk.pagerDecodingStruct()) },
                baseline: { sink(try await walk.byHand()) }
            ),
        ]
    }

    /// Benchmarks 6 and 7 (issue 15): route matching in a 1,000-route table, `batch` requests per
    /// batch, and replaying a 1,000-exchange cassette, one whole cassette per batch.
    static func mocking(batch: Int) throws -> [Comparison] {
        let matching = RouteMatching()
        try matching.checkMatches()
        let cassette = try CassetteReplay()
        try cassette.checkReplay()
        return [
            Comparison(
                name: "6 route matching, 1,000 routes", baselineName: "the same in a 10-route table",
                target: .nanoseconds(atMost: 2_000), judged: .threadCPU, operationsPerBatch: batch,
                salvo: { for index in 0..<batch { matching.matchLarge(index) } },
                baseline: { for index in 0..<batch { matching.matchSmall(index) } }
            ),
            Comparison(
                name: "7 cassette replay, 1,000 exchanges", baselineName: "reading the 1,000 files' bytes",
                target: .nanoseconds(atMost: 50_000_000), judged: .wallClock, operationsPerBatch: 1,
                salvo: { sink(cassette.replayAll()) },
                baseline: { sink(cassette.readFiles()) }
            ),
        ]
    }

    /// The names of the Server-Sent Events rows, known before their bodies are built.
    static let eventStreamNames = ["SSE: 100,000 small events", "SSE: 100,000 events, 200-byte data"]

    /// Server-Sent Events parsing: one whole body per batch (the per-operation column is per event).
    /// The target is the "at least 0.9 × the line splitter's throughput": time ≤ 1 / 0.9.
    /// Small events' IDs and data fit in a small string, while the baseline's `data:` lines need
    /// the heap; the 200-byte row, where both sides allocate, is there to show that edge.
    static func eventStream(small: EventStreamParsing, padded: EventStreamParsing) throws -> [Comparison] {
        try small.checkEquivalence()
        try padded.checkEquivalence()
        func comparison(_ name: String, _ parsing: EventStreamParsing, _ target: Comparison.Target) -> Comparison {
            Comparison(
                name: name, baselineName: "LF line splitter (memchr), same 16 KiB chunks",
                target: target, judged: .threadCPU, operationsPerBatch: parsing.eventCount,
                salvo: { sink(try parsing.salvo()) },
                baseline: { sink(parsing.baseline()) }
            )
        }
        return [
            comparison(eventStreamNames[0], small, .ratio(atMost: 1.11)),
            comparison(eventStreamNames[1], padded, .reportedOnly),
        ]
    }

    /// The concurrencies benchmark 5 runs at.
    static let httpConcurrencies = [1, 16]

    /// The names of benchmark 5's rows, known before the server they need is started.
    static var httpNames: [String] {
        httpConcurrencies.flatMap { [httpName(concurrency: $0), httpName(concurrency: $0, sameTransport: true)] }
    }

    private static func httpName(concurrency: Int, sameTransport: Bool = false) -> String {
        sameTransport ? "5b HTTP, concurrency \(concurrency), same transport" : "5 HTTP, concurrency \(concurrency)"
    }

    /// Benchmark 5: `requests` per side per round against the loopback server, at each concurrency.
    static func http(server: LoopbackServer, requests: Int, concurrencies: [Int]) throws -> [Comparison] {
        let firing = try HTTPFiring(baseURL: server.baseURL, maxConnections: concurrencies.max() ?? 1,
                                    viaAsyncData: ProcessInfo.processInfo.environment["SALVO_BENCH_ASYNC_DATA"] != nil)
        return concurrencies.flatMap { concurrency in [
            Comparison(
                name: httpName(concurrency: concurrency), baselineName: "URLSession.data(for:)",
                target: .ratio(atMost: 1.05), judged: .wallClock, operationsPerBatch: requests,
                salvo: { try await firing.salvo(count: requests, concurrency: concurrency) },
                baseline: { try await firing.raw(count: requests, concurrency: concurrency) }
            ),
            Comparison(
                name: httpName(concurrency: concurrency, sameTransport: true), baselineName: "URLSession.dataTask(with:completionHandler:)",
                target: .reportedOnly, judged: .wallClock, operationsPerBatch: requests,
                salvo: { try await firing.salvo(count: requests, concurrency: concurrency) },
                baseline: { try await firing.rawCompletionHandler(count: requests, concurrency: concurrency) }
            ),
        ] }
    }

    /// The name of benchmark 8's row for a body of `byteCount` bytes.
    static func streamingName(byteCount: Int) -> String {
        "8 Streaming \(byteCount >> 20) MiB, bytes()"
    }

    /// Benchmark 8: one whole body per batch and side. The target is the issue's "throughput at
    /// least 0.9× the raw delegate's": time ≤ 1 / 0.9.
    static func streaming(_ streaming: ByteStreaming) async throws -> Comparison {
        try await streaming.checkEquivalence()
        return Comparison(
            name: streamingName(byteCount: streaming.byteCount), baselineName: "URLSession session-level data delegate",
            target: .ratio(atMost: 1.11), judged: .wallClock, operationsPerBatch: 1,
            salvo: { sink(try await streaming.salvo()) },
            baseline: { sink(try await streaming.raw()) }
        )
    }
}
