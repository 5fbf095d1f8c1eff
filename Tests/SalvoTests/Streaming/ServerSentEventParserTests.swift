import Foundation
import Testing
@_spi(Transport) @_spi(Testing) @testable import Salvo

@Suite struct ServerSentEventParserTests {
    /// A stream and the events it dispatches, with what the parser keeps after it.
    struct Case: CustomTestStringConvertible, Sendable {
        let stream: [UInt8]
        let events: [ServerSentEvent]
        var lastEventID = ""
        var reconnectionTime: TimeInterval?

        init(_ stream: String, _ events: [ServerSentEvent], lastEventID: String = "", reconnectionTime: TimeInterval? = nil) {
            self.init(bytes: Array(stream.utf8), events, lastEventID: lastEventID, reconnectionTime: reconnectionTime)
        }

        init(bytes: [UInt8], _ events: [ServerSentEvent], lastEventID: String = "", reconnectionTime: TimeInterval? = nil) {
            self.stream = bytes
            self.events = events
            self.lastEventID = lastEventID
            self.reconnectionTime = reconnectionTime
        }

        var outcome: Outcome { Outcome(events: events, lastEventID: lastEventID, reconnectionTime: reconnectionTime) }
        var testDescription: String { String(reflecting: String(decoding: stream, as: UTF8.self)) }
    }

    /// The examples of the WHATWG HTML standard, "Interpreting an event stream" and the introduction.
    static let specExamples: [Case] = [
        Case("data: YHOO\ndata: +2\ndata: 10\n\n", [event("YHOO\n+2\n10")]),
        Case(
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
            [event("first event", id: "1"), event("second event"), event(" third event")]
        ),
        Case("data\n\ndata\ndata\n\ndata:", [event(""), event("\n")]),
        Case("data:test\n\ndata: test\n\n", [event("test"), event("test")]),
        Case(
            "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n",
            [event("73857293", type: "add"), event("2153", type: "remove"), event("113411", type: "add")]
        ),
    ]

    static let rules: [Case] = [
        Case("", []),
        Case("\n\n\r\n\r", []),
        Case(": only a comment\n\n", []),
        Case(":\ndata: a\n: between\n\n", [event("a")]),
        Case("data: a\ndata:\ndata: b\n\n", [event("a\n\nb")]),
        Case("data: a:b: c\n\n", [event("a:b: c")]),
        Case("data:\tx\n\n", [event("\tx")]),
        Case("Data: x\nDATA: y\n\n", []),
        Case("foo: bar\ndata: a\nbaz\n\n", [event("a")]),
        Case("event: x\n\ndata: y\n\n", [event("y")]),
        Case("event\ndata: y\n\n", [event("y")]),
        Case("event: a\nevent: b\ndata: y\n\n", [event("y", type: "b")]),
        Case("data: a\r\rdata: b\r\n\r\ndata: c\n\r\n", [event("a"), event("b"), event("c")]),
        Case("data: héllo 😀\n\n", [event("héllo 😀")]),
        Case(bytes: Array("data: a".utf8) + [0xFF, 0xE2, 0x82] + Array("\n\n".utf8), [event("a\u{FFFD}\u{FFFD}")]),
        Case("data: a\n\ndata: cut off\n", [event("a")]),
        Case("data: a\n\nid: 2\ndata: cut off", [event("a")]),
        // The UTF-8 decode drops one leading BOM, only at the very start.
        Case("\u{FEFF}data: a\n\n", [event("a")]),
        Case("\u{FEFF}\u{FEFF}data: a\n\n", []),
        Case("data: a\n\n\u{FEFF}data: b\n\n", [event("a")]),
        Case(bytes: [0xEF, 0xBB] + Array("data: a\n\n".utf8), []),
        // id: persists, resets when empty, ignores NUL, and moves only when a block ends.
        Case("id: 7\ndata: a\n\ndata: b\n\n", [event("a", id: "7"), event("b", id: "7")], lastEventID: "7"),
        Case("id: 1\ndata: a\n\nid:\ndata: b\n\n", [event("a", id: "1"), event("b")]),
        Case("id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n", [event("a", id: "1"), event("b", id: "1")], lastEventID: "1"),
        Case("id: 9\n\ndata: b\n\n", [event("b", id: "9")], lastEventID: "9"),
        Case("id: 1\ndata: a\n\nid: 2\ndata: cut", [event("a", id: "1")], lastEventID: "1"),
        Case("id:  spaced \ndata: a\n\n", [event("a", id: " spaced ")], lastEventID: " spaced "),
        // retry: only ASCII digits count; milliseconds become seconds.
        Case("retry: 1500\ndata: a\n\ndata: b\n\n", [event("a", retry: 1.5), event("b")], reconnectionTime: 1.5),
        Case("retry: 250\n\n", [], reconnectionTime: 0.25),
        Case("retry: 0\ndata: a\n\n", [event("a", retry: 0)], reconnectionTime: 0),
        Case("retry: 1000\n\nretry: 15x0\nretry: -1\nretry: 1.5\nretry:\nretry:  100\nretry: +100\nretry: ５\ndata: a\n\n",
             [event("a")], reconnectionTime: 1),
        Case("retry: 99999999999999999999999\ndata: a\n\n", [event("a")]),
    ]

    @Test(arguments: specExamples + rules)
    func dispatchesTheSameEventsWhereverChunksAreCut(_ test: Case) throws {
        #expect(Self.reference(test.stream) == test.outcome)
        for chunks in Chunking.every(test.stream) {
            #expect(try Self.parse(chunks) == test.outcome, "chunks \(chunks.map(Array.init))")
        }
    }

    @Test func lastEventIDMovesWhenTheBlockEnds() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("id: 5\ndata: x\n".utf8)) == [])
        #expect(parser.lastEventID == "")
        #expect(try parser.parse(Data("\n".utf8)) == [Self.event("x", id: "5")])
        #expect(parser.lastEventID == "5")
    }

    @Test func startsFromAGivenLastEventID() throws {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(try parser.parse(Data("data: a\n\nid: 42\ndata: b\n\n".utf8)) == [Self.event("a", id: "41"), Self.event("b", id: "42")])
        parser.lastEventID = "100"
        #expect(try parser.parse(Data("data: c\n\n".utf8)) == [Self.event("c", id: "100")])
    }

    @Test func finishDropsTheCutEventAndTheNextStreamCarriesTheLastEventID() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("retry: 2000\nid: 1\ndata: a\n\nid: 2\nevent: odd\ndata: cut".utf8)) == [Self.event("a", id: "1", retry: 2)])
        #expect(parser.finish() == [])
        #expect(parser.lastEventID == "1")
        #expect(parser.reconnectionTime == 2)
        // A reconnection: a new stream, which may start with a BOM again; the cut block left nothing behind.
        #expect(try parser.parse(Data("\u{FEFF}data: b\n\n".utf8)) == [Self.event("b", id: "1")])
    }

    /// A stream that never ends a line, or never ends an event: chunks the parser takes, then refuses.
    struct Runaway: CustomTestStringConvertible, Sendable {
        let maximumLineLength: Int
        let chunk: String
        let acceptedChunks: Int
        let limit: String
        var testDescription: String { "\(acceptedChunks) × \(chunk.utf8.count) bytes, then refused at \(limit)" }
    }

    static let runaways = [
        Runaway(maximumLineLength: 1_024, chunk: String(repeating: "x", count: 256), acceptedChunks: 4, limit: "1024 bytes"),
        Runaway(maximumLineLength: 100, chunk: "data: " + String(repeating: "x", count: 90) + "\n", acceptedChunks: 8, limit: "800 bytes"),
    ]

    @Test(arguments: runaways)
    func aLineOrEventThatNeverEndsIsRefusedWithTheLimitNamed(_ runaway: Runaway) throws {
        var parser = ServerSentEventParser(maximumLineLength: runaway.maximumLineLength)
        #expect(parser.maximumDataLength == 8 * runaway.maximumLineLength)
        let chunk = Data(runaway.chunk.utf8)
        for _ in 0..<runaway.acceptedChunks {
            #expect(try parser.parse(chunk) == [])
        }
        // Refused as soon as the limit is passed, not once the whole body is buffered.
        let problem = try refusal { try parser.parse(chunk) }
        #expect(problem.reason.contains(runaway.limit))
        #expect(problem.reason.contains("raise maximumLineLength"))
    }

    @Test func decodesJSONData() throws {
        struct Tick: Decodable, Equatable { let n: Int }
        #expect(try ServerSentEvent(data: #"{"n": 3}"#).decode(Tick.self) == Tick(n: 3))

        let error = try #require(throws: NetworkError.self) { try ServerSentEvent(data: #"{"n": "three"}"#).decode(Tick.self) }
        guard case .decoding(let failure) = error else {
            Issue.record("expected .decoding, got \(error)")
            return
        }
        #expect(failure.body == Data(#"{"n": "three"}"#.utf8))
        #expect(failure.typeName == "Tick")
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func fuzzedStreamsParseLikeTheReferenceInEveryChunking(seed: UInt64) throws {
        let pieces: [[UInt8]] = [
            "data", "id", "event", "retry", ":", ": ", " ", "\n", "\n", "\r", "\r\n", "\0", "x", "42", "é", "\u{FEFF}",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82]]
        for (stream, chunkings) in Chunking.fuzzed(seed: seed, pieces: pieces, maxPieces: 60) {
            let expected = Self.reference(stream)
            for chunks in chunkings {
                #expect(try Self.parse(chunks) == expected, "chunks \(chunks.map(Array.init))")
            }
        }
    }

    // MARK: - Helpers

    /// What a stream leaves: its events, then the parser's last event ID and reconnection time.
    struct Outcome: Equatable {
        var events: [ServerSentEvent]
        var lastEventID: String
        var reconnectionTime: TimeInterval?
    }

    static func event(_ data: String, type: String = "message", id: String? = nil, retry: TimeInterval? = nil) -> ServerSentEvent {
        ServerSentEvent(event: type, data: data, id: id, retry: retry)
    }

    static func parse(_ chunks: [ArraySlice<UInt8>]) throws -> Outcome {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks {
            events += try parser.parse(Data(chunk))
        }
        events += parser.finish()
        return Outcome(events: events, lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime)
    }

    /// The WHATWG steps written out plainly over decoded lines, to check the byte-level parser against.
    static func reference(_ stream: [UInt8]) -> Outcome {
        let bytes = stream.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(stream.dropFirst(3)) : stream
        var outcome = Outcome(events: [], lastEventID: "", reconnectionTime: nil)
        var data = "", type = "", idBuffer = ""
        var retry: TimeInterval?
        for line in LineSplitterTests.reference(bytes).lines {
            let scalars = line.unicodeScalars
            if scalars.isEmpty {
                outcome.lastEventID = idBuffer
                if !data.isEmpty {
                    outcome.events.append(event(String(data.dropLast()), type: type.isEmpty ? "message" : type,
                                                id: idBuffer.isEmpty ? nil : idBuffer, retry: retry))
                }
                (data, type, retry) = ("", "", nil)
                continue
            }
            if scalars.first == ":" { continue }
            var name = String(scalars), value = ""
            if let colon = scalars.firstIndex(of: ":") {
                name = String(scalars[..<colon])
                let rest = scalars[scalars.index(after: colon)...]
                value = String(rest.first == " " ? rest.dropFirst() : rest)
            }
            switch name {
            case "event": type = value
            case "data": data += value + "\n"
            case "id" where !value.unicodeScalars.contains("\0"): idBuffer = value
            case "retry" where !value.isEmpty && value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }):
                if let milliseconds = Int(value) {
                    retry = TimeInterval(milliseconds) / 1_000
                    outcome.reconnectionTime = retry
                }
            default: break
            }
        }
        return outcome
    }
}
