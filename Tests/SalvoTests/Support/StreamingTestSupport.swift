import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// Ways to cut a body into chunks, so a streaming parser can be checked against every one.
enum Chunking {
    /// The body whole, cut once at every offset, cut twice at every pair of offsets for short
    /// bodies, and byte by byte.
    static func every(_ body: [UInt8]) -> [[ArraySlice<UInt8>]] {
        var chunkings: [[ArraySlice<UInt8>]] = [[body[...]], body.indices.map { body[$0...$0] }]
        for cut in 0...body.count {
            chunkings.append([body[..<cut], body[cut...]])
        }
        if body.count <= 24 {
            for first in 0...body.count {
                for second in first...body.count {
                    chunkings.append([body[..<first], body[first..<second], body[second...]])
                }
            }
        }
        return chunkings
    }

    /// The body in chunks of `size` bytes, the last one shorter.
    static func fixed(_ body: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: body.count, by: size).map { body[$0..<min($0 + size, body.count)] }
    }

    /// The body in chunks of 0 to 8 bytes drawn from `random`; empty chunks included.
    static func random(_ body: [UInt8], using random: inout SplitMix64) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < body.count {
            let size = Int(random.next() % 9)
            chunks.append(body[start..<min(start + size, body.count)])
            start += size
        }
        return chunks
    }

    /// `count` seeded random bodies of up to `maxPieces` pieces each, every one with the body whole
    /// and cut at random 10 times.
    static func fuzzed(
        seed: UInt64,
        pieces: [[UInt8]],
        maxPieces: Int,
        count: Int = 50
    ) -> [(body: [UInt8], chunkings: [[ArraySlice<UInt8>]])] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let body = (0..<Int(generator.next() % UInt64(maxPieces + 1)))
                .flatMap { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
            return (body, [[body[...]]] + (0..<10).map { _ in random(body, using: &generator) })
        }
    }
}

/// The problem a stream was refused for: fails the test unless `body` throws
/// ``NetworkError/unacceptableResponse(_:)``.
func refusal(_ body: () throws -> some Any) throws -> ResponseProblem {
    let error = try #require(throws: NetworkError.self) { try body() }
    guard case .unacceptableResponse(let problem) = error else {
        Issue.record("expected .unacceptableResponse, got \(error)")
        throw error
    }
    return problem
}
