import Foundation
import Testing
@_spi(Testing) import Salvo
import SalvoTesting

// The code in Docs/Streaming.md, kept here so it cannot rot.

@Suite struct StreamingSamples {
    private struct Tick: Decodable {
        let n: Int
    }

    @Test func parsingAnEventStreamChunkByChunk() throws {
        let chunks = [Data("event: tick\ndata: {\"n\"".utf8), Data(": 1}\n\nevent: tick\ndata: {\"n\": 2".utf8)]
        var ticks: [Int] = []

        var parser = ServerSentEventParser()
        for chunk in chunks {
            for event in try parser.parse(chunk) where event.event == "tick" {
                let tick = try event.decode(Tick.self)  // data as JSON; a bad one is NetworkError.decoding
                ticks.append(tick.n)
            }
        }
        parser.finish()  // the body ended: an unfinished event is dropped

        #expect(ticks == [1])
    }

    // MARK: - Server-Sent Events

    /// A feed that sends two ticks, closes, and answers 204 to the reconnection: offline, at once.
    private static var feed: FiringFunction {
        let ticks = ": hello\n\nretry: 1000\n\nid: 1\nevent: tick\ndata: {\"n\": 1}\n\nid: 2\nevent: tick\ndata: {\"n\": 2}\n\n"
        return .mock(.sequence([.text(ticks, headers: ["Content-Type": "text/event-stream"]), .status(204)]), clock: .immediate)
    }

    private static let api = ServerConfig(host: "api.example.com")

    @Test func readingAnEventStream() async throws {
        var savedEventID: String?
        var ticks: [Int] = []
        let call = NetCall(server: Self.api, endpoint: .get("/ticks"), firingFunction: Self.feed)
        let noWaiting = ReconnectionPolicy(clock: .immediate)  // the app leaves this out

        for try await event in call.events(resumingAfter: savedEventID, reconnection: noWaiting) where event.event == "tick" {
            let tick = try event.decode(Tick.self, using: call.server.decoder)
            ticks.append(tick.n)
            savedEventID = event.id  // resume from here next launch
        }
        // The loop ends when the server answers 204, or throws why the stream failed.

        #expect(ticks == [1, 2])
        #expect(savedEventID == "2")
    }

    @Test func decodingEveryEvent() async throws {
        let call = NetCall(server: Self.api, endpoint: .get("/ticks"), firingFunction: Self.feed)
        var ticks: [Int] = []

        for try await tick in call.events(decoding: Tick.self, reconnection: ReconnectionPolicy(clock: .immediate)) {
            ticks.append(tick.n)  // every event's data, decoded with call.server.decoder
        }

        #expect(ticks == [1, 2])
    }

    @Test func aStreamThatEndsWithItsBody() async throws {
        let answer: FiringFunction = .mock(.text("data: Hel\n\ndata: lo\n\ndata: [DONE]\n\n", headers: ["Content-Type": "text/event-stream"]))
        let completion = NetCall(server: Self.api, endpoint: .post("/chat", body: .json(["prompt": "Hi"])), firingFunction: answer)
        var text = ""

        for try await event in completion.events(reconnection: .never) where event.data != "[DONE]" {
            text += event.data
        }

        #expect(text == "Hello")
    }

    /// The two loops as an app writes them, with the default reconnection (compiled; the tests
    /// here run the same loops with a clock that does not wait).
    private static func appLoops(_ call: NetCall) async throws -> (String?, [String], [String], EventStreamState) {
        var savedEventID: String?
        var ticks: [String] = []
        var comments: [String] = []
        var connection: EventStreamState = .connecting
        for try await event in call.events(resumingAfter: savedEventID) where event.event == "tick" {
            let tick = try event.decode(Tick.self, using: call.server.decoder)
            ticks.append(String(tick.n))
            savedEventID = event.id  // resume from here next launch
        }
        for try await activity in call.events().activity {
            switch activity {
            case .event(let event): ticks.append(event.data)
            case .comment(let text): comments.append(text)
            case .state(let state): connection = state
            }
        }
        return (savedEventID, ticks, comments, connection)
    }

    @Test func showingTheConnectionAndItsComments() async throws {
        let call = NetCall(server: Self.api, endpoint: .get("/ticks"), firingFunction: Self.feed)
        var connection: EventStreamState = .connecting
        var ticks: [String] = []
        var comments: [String] = []

        for try await activity in call.events(reconnection: ReconnectionPolicy(clock: .immediate)).activity {
            switch activity {
            case .event(let event): ticks.append(event.data)
            case .comment(let text): comments.append(text)  // ": hello" arrives as "hello"
            case .state(let state): connection = state      // .connecting, .open, .waitingToReconnect(seconds:), .closed
            }
        }

        #expect(ticks.count == 2)
        #expect(comments == ["hello"])
        #expect(connection == .closed)
    }

    @Test func aPolicyForAServerThatSendsHeartbeats() {
        let call = NetCall(server: Self.api, endpoint: .get("/ticks"), firingFunction: Self.feed)

        // The server sends ": keep-alive" every 15 s: 45 s without a byte is a dropped connection.
        let policy = ReconnectionPolicy(maximumDelay: 60, idleTimeout: 45)
        let events = call.events(reconnection: policy)

        #expect(policy.idleTimeout == 45)
        #expect(type(of: events) == ResponseStream<ServerSentEvent>.self)
    }

    @Test func streamingPastTheServersValidation() async throws {
        var api = Self.api
        api.actions = [ValidationAction.json]
        let csv: FiringFunction = .mock(.text("id,title\n1,Dune\n", headers: ["Content-Type": "text/csv"]))
        var export = NetCall(server: api, endpoint: .get("/export"), firingFunction: csv)
        var rows: [String] = []

        export.actions.append(ValidationAction())  // this call accepts any content type
        for try await line in export.lines() { rows.append(line) }

        #expect(rows == ["id,title", "1,Dune"])
    }

    @Test func testingReconnectionWithATestClock() async throws {
        let time = TestClock()
        let call = NetCall(server: Self.api, endpoint: .get("/ticks"), firingFunction: Self.feed)
        let reading = Task {
            var count = 0
            for try await _ in call.events(reconnection: ReconnectionPolicy(clock: time.clock)) { count += 1 }
            return count
        }

        await time.waitForSleepers(1)   // both ticks arrived, the body ended, the stream waits…
        #expect(time.sleeps == [1])     // …the server's retry: 1000
        time.advance(by: 1)             // it reconnects now, and the 204 ends it

        #expect(try await reading.value == 2)
    }
}
