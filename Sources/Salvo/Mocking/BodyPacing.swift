import Foundation

/// When the bytes of a mock body arrive: in the chunks it was given in (a streamed answer, or the
/// boundaries of a recorded stream), squeezed through a bandwidth when the network conditions
/// drew one.
///
/// Walking it gives each piece of the body with the seconds to wait before it; pieces are worked
/// out one at a time, so a long, slow body costs no memory up front.
///
/// ```swift
/// let pacing = BodyPacing(length: 1_000, chunks: nil, bandwidth: 4_000)
/// for step in pacing { … }   // 5 pieces of 200 bytes, 0.05 s apart
/// ```
struct BodyPacing: Sequence, Sendable {
    /// One chunk of a streamed body: its size and when it arrives.
    struct Chunk: Sendable, Hashable {
        /// How many bytes the chunk holds.
        var bytes: Int
        /// Seconds after the response head that the chunk arrives.
        var time: TimeInterval
    }

    /// One piece of the body to report.
    struct Step: Sendable, Equatable {
        /// Seconds to wait after the previous piece (or the head) before reporting this one.
        var wait: TimeInterval
        /// The bytes of the body this piece holds.
        var range: Range<Int>
    }

    private let length: Int
    private let chunks: [Chunk]
    private let bandwidth: Double?

    /// The pacing of a body of `length` bytes given in `chunks` (the whole body at once when nil)
    /// through `bandwidth` bytes per second (no limit when nil).
    ///
    /// Chunks are made to cover the body exactly: bytes past its end are dropped and bytes the
    /// chunks miss arrive with the last one, so a hand-edited fixture body still replays whole.
    init(length: Int, chunks: [Chunk]?, bandwidth: Double?) {
        self.length = Swift.max(0, length)
        self.bandwidth = bandwidth.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        var covered: [Chunk] = []
        var remaining = self.length, time: TimeInterval = 0
        for chunk in chunks ?? [] where remaining > 0 && chunk.bytes > 0 {
            time = Swift.max(time, NetworkConditions.clampedDelay(chunk.time))
            covered.append(Chunk(bytes: Swift.min(chunk.bytes, remaining), time: time))
            remaining -= covered[covered.count - 1].bytes
        }
        if remaining > 0 {
            if covered.isEmpty { covered.append(Chunk(bytes: remaining, time: 0)) } else { covered[covered.count - 1].bytes += remaining }
        }
        self.chunks = covered
    }

    /// Whether the body arrives at once, in one piece with the head: no bandwidth, one chunk at time zero.
    var isImmediate: Bool {
        bandwidth == nil && chunks.count <= 1 && (chunks.first?.time ?? 0) == 0
    }

    func makeIterator() -> Iterator {
        Iterator(chunks: chunks, bandwidth: bandwidth)
    }

    /// Works out the pieces one at a time.
    struct Iterator: IteratorProtocol {
        private let chunks: [Chunk]
        private let bandwidth: Double?
        /// The most bytes a piece holds under the bandwidth: what it carries in one tick.
        private let bytesPerTick: Int
        /// Seconds after the head that the last piece arrived.
        private var now: TimeInterval = 0
        /// Bytes reported so far.
        private var sent = 0
        /// Bytes the source has made available so far (chunks whose time has come).
        private var released = 0
        /// The next chunk not yet released.
        private var nextChunk = 0

        init(chunks: [Chunk], bandwidth: Double?) {
            self.chunks = chunks
            self.bandwidth = bandwidth
            bytesPerTick = bandwidth.map { Swift.max(1, Int(Swift.min($0 * NetworkConditions.tick, Double(Int.max / 2)))) } ?? .max
        }

        mutating func next() -> Step? {
            guard let bandwidth else {
                guard nextChunk < chunks.count else { return nil }
                let chunk = chunks[nextChunk]
                nextChunk += 1
                defer { now = chunk.time; sent += chunk.bytes }
                return Step(wait: chunk.time - now, range: sent..<(sent + chunk.bytes))
            }
            var start = now
            release(until: start)
            if released == sent {
                // The link is idle until the source sends its next chunk.
                guard nextChunk < chunks.count else { return nil }
                start = chunks[nextChunk].time
                release(until: start)
            }
            let size = Swift.min(released - sent, bytesPerTick)
            let end = start + Double(size) / bandwidth
            defer { now = end; sent += size }
            return Step(wait: end - now, range: sent..<(sent + size))
        }

        /// Makes available the bytes of every chunk that has arrived by `time`.
        private mutating func release(until time: TimeInterval) {
            while nextChunk < chunks.count, chunks[nextChunk].time <= time {
                released += chunks[nextChunk].bytes
                nextChunk += 1
            }
        }
    }
}
