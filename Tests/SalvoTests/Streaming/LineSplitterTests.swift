import Foundation
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct LineSplitterTests {
    /// A body and the lines it splits into: complete lines, then what `finish()` hands back.
    struct Case: CustomTestStringConvertible, Sendable {
        let body: [UInt8]
        let lines: [String]
        let last: String?

        init(_ body: String, _ lines: [String], last: String? = nil) {
            self.init(bytes: Array(body.utf8), lines, last: last)
        }

        init(bytes: [UInt8], _ lines: [String], last: String? = nil) {
            self.body = bytes
            self.lines = lines
            self.last = last
        }

        var testDescription: String { String(reflecting: String(decoding: body, as: UTF8.self)) }
    }

    static let cases: [Case] = [
        Case("", []),
        Case("a\nb\n", ["a", "b"]),
        Case("a\rb\r", ["a", "b"]),
        Case("a\r\nb\r\n", ["a", "b"]),
        Case("a\n\r\nb\r\rc", ["a", "", "b", ""], last: "c"),
        Case("\n\n", ["", ""]),
        Case("\r\r\n\n", ["", "", ""]),
        Case("\n\r", ["", ""]),
        Case("one\r\n\r\ntwo", ["one", ""], last: "two"),
        Case("héllo 😀\nnaïve\r", ["héllo 😀", "naïve"]),
        Case("no terminator", [], last: "no terminator"),
        Case(bytes: [0x61, 0xFF, 0x62, 0x0A], ["a\u{FFFD}b"]),
        Case(bytes: [0xE2, 0x82, 0x0D, 0x41, 0x0A], ["\u{FFFD}", "A"]),
        Case(bytes: [0xED, 0xA0, 0x80, 0x0A], ["\u{FFFD}\u{FFFD}\u{FFFD}"]),
        Case(bytes: [0xF0, 0x9F, 0x98, 0x78, 0x0A], ["\u{FFFD}x"]),
    ]

    @Test(arguments: cases)
    func splitsLikeTheReferenceWhereverChunksAreCut(_ test: Case) throws {
        #expect(Self.reference(test.body) == Split(lines: test.lines, last: test.last))
        for chunks in Chunking.every(test.body) {
            #expect(try Self.split(chunks) == Split(lines: test.lines, last: test.last), "chunks \(chunks.map(Array.init))")
        }
    }

    @Test func crEndingOneChunkAndLFStartingTheNextAreOneLineEnd() throws {
        var splitter = LineSplitter()
        #expect(try splitter.lines(in: Data("a\r".utf8)) == ["a"])
        #expect(try splitter.lines(in: Data()) == [])
        #expect(try splitter.lines(in: Data("\nb\n".utf8)) == ["b"])
        #expect(splitter.finish() == nil)
    }

    @Test func charactersCutAcrossChunksStayWhole() throws {
        var splitter = LineSplitter()
        let bytes = Array("é😀\n".utf8)
        var lines: [String] = []
        for byte in bytes {
            lines += try splitter.lines(in: Data([byte]))
        }
        #expect(lines == ["é😀"])
    }

    @Test func finishReadiesTheSplitterForANewStream() throws {
        var splitter = LineSplitter()
        _ = try splitter.lines(in: Data("partial\r".utf8))
        #expect(splitter.finish() == nil)
        #expect(try splitter.lines(in: Data("\nnext\n".utf8)) == ["", "next"])
    }

    @Test(arguments: [1, 7, 64])
    func aLineAtTheLimitPassesAndOneByteMoreIsRefused(chunkSize: Int) throws {
        let limit = 64
        let atLimit = Array(repeating: UInt8(ascii: "x"), count: limit) + [0x0A]
        #expect(try Self.split(Chunking.fixed(atLimit, size: chunkSize), limit: limit).lines.count == 1)
        let over = Array(repeating: UInt8(ascii: "x"), count: limit + 1) + [0x0A]
        #expect(throws: NetworkError.self) { try Self.split(Chunking.fixed(over, size: chunkSize), limit: limit) }
    }

    @Test func aHugeLineWithoutATerminatorIsRefusedOnceItPassesTheLimit() throws {
        var splitter = LineSplitter(maximumLineLength: 1_024)
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 100)
        for _ in 1...10 {
            #expect(try splitter.lines(in: chunk) == [])
        }
        // 1,100 bytes without a line break: refused now, not after the whole body is buffered.
        let problem = try refusal { try splitter.lines(in: chunk) }
        #expect(problem.reason.contains("1024 bytes"))
        #expect(problem.reason.contains("raise maximumLineLength"))
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func fuzzedBodiesSplitLikeTheReferenceInEveryChunking(seed: UInt64) throws {
        let bytes: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A, 0x61, 0x62, 0x20, 0x00, 0xC3, 0xA9, 0xFF, 0xE2, 0x82, 0xAC]
        for (body, chunkings) in Chunking.fuzzed(seed: seed, pieces: bytes.map { [$0] }, maxPieces: 200) {
            let expected = Self.reference(body)
            for chunks in chunkings {
                #expect(try Self.split(chunks) == expected, "chunks \(chunks.map(Array.init))")
            }
        }
    }

    // MARK: - Helpers

    struct Split: Equatable {
        var lines: [String]
        var last: String?
    }

    static func split(_ chunks: [ArraySlice<UInt8>], limit: Int = LineSplitter.defaultMaximumLineLength) throws -> Split {
        var splitter = LineSplitter(maximumLineLength: limit)
        var lines: [String] = []
        for chunk in chunks {
            lines += try splitter.lines(in: Data(chunk))
        }
        return Split(lines: lines, last: splitter.finish())
    }

    /// A byte-by-byte splitter written straight from the rules, to check the fast one against.
    static func reference(_ body: [UInt8]) -> Split {
        var lines: [String] = []
        var line: [UInt8] = []
        var index = 0
        while index < body.count {
            let byte = body[index]
            index += 1
            if byte == 0x0A || byte == 0x0D {
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
                if byte == 0x0D, index < body.count, body[index] == 0x0A { index += 1 }
            } else {
                line.append(byte)
            }
        }
        return Split(lines: lines, last: line.isEmpty ? nil : String(decoding: line, as: UTF8.self))
    }
}
