import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @_spi(Testing) import Salvo
import SalvoTesting

// The code in the streaming, bandwidth and recorded-stream sections of Docs/Mocking.md, kept here
// so it cannot rot.

enum MockStreamingSamples {
    struct Order: Codable, Sendable, Equatable {
        let id: Int
    }

    // MARK: - Streaming answers

    static let liveRoutes = MockRoutes(under: "/v1", [
        .get("/prices", .events([
            ServerSentEvent(event: "price", data: #"{"eur": 101}"#, id: "1"),
            ServerSentEvent(event: "price", data: #"{"eur": 99}"#, id: "2", retry: 5),
        ], every: 1)),
        .get("/build/42/log", .lines(["compiling…", "linking…", "done"], every: 0.5)),
        .get("/orders/live", .jsonLines([Order(id: 1), Order(id: 2)], every: 2)),
        .get("/reply", .chunks([Data("Hel".utf8), Data("lo".utf8)], every: 0.1).delayed(by: 0.3)),
    ])

    // MARK: - Bandwidth

    /// Watches a download and an upload arrive, as a progress bar would.
    final class ProgressLog: ResponseReceiver, @unchecked Sendable {
        private let lock = NSLock()
        private var progress = (sent: [Int64](), received: 0, isDone: false)

        var sent: [Int64] { lock.withLock { progress.sent } }
        var received: Int { lock.withLock { progress.received } }
        var isDone: Bool { lock.withLock { progress.isDone } }

        func receive(_ head: ResponseHead) {}
        func receive(_ chunk: Data) { lock.withLock { progress.received += chunk.count } }
        func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) { lock.withLock { progress.sent.append(bytesSent) } }
        func finish(_ error: (any Error)?) { lock.withLock { progress.isDone = true } }
    }
}

@Suite struct MockStreamingSamplesTests {
    typealias Order = MockStreamingSamples.Order

    private func call(_ path: EndpointPath, _ firing: FiringFunction) -> NetCall {
        NetCall(server: ServerConfig(host: "api.example.com", basePath: "v1"), endpoint: .get(path), callbackQueue: .immediate, firingFunction: firing)
    }

    @Test func streamingAnswersReadWholeToo() async throws {
        let firing = FiringFunction.mock(MockStreamingSamples.liveRoutes, clock: .immediate)

        var parser = ServerSentEventParser()
        let prices = try parser.parse(try await call("/prices", firing).response().data)
        let log = try await call("/build/42/log", firing).response().data
        let orders = try await call("/orders/live", firing).response().data

        #expect(prices.map(\.id) == ["1", "2"] && prices.last?.retry == 5)
        #expect(String(decoding: log, as: UTF8.self) == "compiling…\nlinking…\ndone\n")
        #expect(String(decoding: orders, as: UTF8.self) == "{\"id\":1}\n{\"id\":2}\n")
        #expect(try await call("/reply", firing).response().data == Data("Hello".utf8))
    }

    @Test func aSlowNetworkOffline() async throws {
        let photo = Data(count: 150_000)
        let slowDownload = NetworkConditions(bandwidth: 20_000...50_000, seed: 7)    // 20–50 kB/s
        let firing = FiringFunction.mock(.data(photo), conditions: slowDownload, clock: .immediate)
        #expect(try await call("/photo", firing).response().data == photo)

        let session = MockSession(conditions: .slow3G(seed: 2), clock: .immediate) { _ in .data(photo) }
        var upload = URLRequest(url: try #require(URL(string: "https://api.example.com/v1/photos")))
        upload.httpMethod = "POST"
        upload.httpBody = photo
        let progress = MockStreamingSamples.ProgressLog()
        _ = session.start(upload, options: ExchangeOptions(readsBodyAsItArrives: true), receiver: progress)
        while !progress.isDone { try await Task.sleep(nanoseconds: 1_000_000) }

        #expect(progress.sent.count > 50 && progress.sent.last == 150_000)   // ~2,500 bytes every 50 ms
        #expect(progress.received == photo.count)
    }

    @Test func aRecordedStreamReplays() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-sample-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        let feed = call("/feed", .production)
        try Data(Self.recordedFeed.utf8).write(to: fixtures.appendingPathComponent(try feed.fixtureFileName()))

        var replayed = feed
        replayed.firingFunction = .replaying(from: fixtures, clock: .immediate)
        var parser = ServerSentEventParser()
        let events = try parser.parse(try await replayed.response().data)
        #expect(events.map(\.data) == [#"{"n": 1}"#, #"{"n": 2}"#])
    }

    /// The fixture of Docs/Mocking.md's "Recorded streams".
    static let recordedFeed = #"""
    {
      "request" : {
        "headers" : {
          "Accept" : "text/event-stream"
        },
        "method" : "GET",
        "url" : "https://api.example.com/v1/feed"
      },
      "response" : {
        "body" : {
          "text" : "id: 1\ndata: {\"n\": 1}\n\nid: 2\ndata: {\"n\": 2}\n\n"
        },
        "chunks" : [
          {
            "bytes" : 22,
            "ms" : 0
          },
          {
            "bytes" : 22,
            "ms" : 1003
          }
        ],
        "headers" : {
          "Content-Type" : "text/event-stream; charset=utf-8"
        },
        "status" : 200
      },
      "version" : 1
    }
    """#
}
