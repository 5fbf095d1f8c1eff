import Foundation
import Testing
import Salvo

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
}
