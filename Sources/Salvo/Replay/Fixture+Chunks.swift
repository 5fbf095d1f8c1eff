import Foundation

extension Fixture {
    /// One chunk of a streamed response as recorded: its size, and when it arrived.
    package struct Chunk: Codable, Sendable, Equatable {
        /// How many bytes of the body the chunk held.
        package var bytes: Int
        /// Milliseconds after the response head that the chunk arrived.
        package var ms: Int

        /// A chunk of `bytes` bytes that arrived `ms` milliseconds after the head.
        package init(bytes: Int, ms: Int) {
            self.bytes = bytes
            self.ms = ms
        }
    }

    /// `chunks` of `body` laid over `redacted`, the same body after `redact`.
    ///
    /// Redaction that keeps the body's length keeps the chunks. Otherwise each chunk redacted on
    /// its own gives the new sizes, when together they make the redacted body; when they do not (a
    /// secret cut by a chunk boundary, a JSON body re-encoded), the boundaries are scaled to the
    /// new length. The stored body is the whole body redacted either way; only where it is cut may move.
    package static func chunks(_ chunks: [Chunk], of body: Data, redactedTo redacted: Data, by redact: (Data) -> Data) -> [Chunk] {
        guard body.count != redacted.count else { return chunks }
        var pieces: [Data] = []
        var offset = body.startIndex
        for chunk in chunks {
            let end = min(body.endIndex, offset + max(0, chunk.bytes))
            pieces.append(redact(body.subdata(in: offset..<end)))
            offset = end
        }
        if offset == body.endIndex, pieces.reduce(into: Data(), { $0.append($1) }) == redacted {
            return zip(chunks, pieces).map { Chunk(bytes: $1.count, ms: $0.ms) }
        }
        var scaled: [Chunk] = []
        var recordedEnd = 0, previousEnd = 0
        for chunk in chunks {
            recordedEnd += max(0, chunk.bytes)
            let end = min(redacted.count, Int((Double(recordedEnd) * Double(redacted.count) / Double(max(1, body.count))).rounded()))
            scaled.append(Chunk(bytes: max(0, end - previousEnd), ms: chunk.ms))
            previousEnd = max(previousEnd, end)
        }
        if !scaled.isEmpty { scaled[scaled.count - 1].bytes += redacted.count - previousEnd }
        return scaled
    }
}
