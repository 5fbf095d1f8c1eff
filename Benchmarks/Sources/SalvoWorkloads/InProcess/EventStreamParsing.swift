import Foundation
@_spi(Testing) import Salvo

/// Server-Sent Events parsing: a body of small events fed in 16 KiB chunks to
/// `ServerSentEventParser`, against a hand-written splitter that only cuts the same chunks into
/// lines at LF.
///
/// Both sides see the same chunks, keep a partial line across them, hand out `String`s decoded
/// from UTF-8 and return what each chunk completes as an array. The baseline is the floor a
/// parser cannot beat (it must split lines too); the parser also reads fields, joins data,
/// tracks the last event ID and builds events.
public struct EventStreamParsing: Sendable {
    /// Events in the body.
    public let eventCount: Int
    /// The body, cut as a transport would deliver it.
    public let chunks: [Data]

    /// The JSON each event carries.
    private let payload: @Sendable (Int) -> String

    /// A body of `eventCount` events, `id:` and one-line JSON `data:` each, every tenth with an
    /// `event:` name, every hundredth followed by a keep-alive comment; cut into `chunkSize` chunks.
    /// The data is `{"n":<number>}`, with a `"pad"` string of `padding` bytes when it is above 0.
    public init(eventCount: Int = 100_000, padding: Int = 0, chunkSize: Int = 16 * 1_024) {
        self.eventCount = eventCount
        let pad = String(repeating: "x", count: padding)
        payload = { padding > 0 ? "{\"n\":\($0),\"pad\":\"\(pad)\"}" : "{\"n\":\($0)}" }
        var body = Data()
        for number in 0..<eventCount {
            var event = "id: \(number)\n"
            if number.isMultiple(of: 10) { event += "event: tick\n" }
            event += "data: \(payload(number))\n\n"
            if number.isMultiple(of: 100) { event += ": keep-alive\n\n" }
            body.append(contentsOf: event.utf8)
        }
        chunks = stride(from: 0, to: body.count, by: chunkSize).map { body.subdata(in: $0..<min($0 + chunkSize, body.count)) }
    }

    /// Salvo: the events of the whole body, chunk by chunk; returns how many.
    public func salvo() throws -> Int {
        var parser = ServerSentEventParser()
        var count = 0
        for chunk in chunks {
            let events = try parser.parse(chunk)
            count += events.count
            sink(events)
        }
        parser.finish()
        return count
    }

    /// Baseline: the lines of the whole body, chunk by chunk, split at LF with `memchr`; returns how many.
    public func baseline() -> Int {
        var partial: [UInt8] = []
        var count = 0
        for chunk in chunks {
            var lines: [String] = []
            chunk.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                var start = 0
                while start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) {
                    let end = UnsafeRawPointer(found) - base
                    let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
                    if partial.isEmpty {
                        lines.append(line.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) })
                    } else {
                        partial.append(contentsOf: line)
                        lines.append(String(decoding: partial, as: UTF8.self))
                        partial.removeAll(keepingCapacity: true)
                    }
                    start = end + 1
                }
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
            }
            count += lines.count
            sink(lines)
        }
        return count
    }

    /// Fails unless the parser finds every event with its data and ID, and the baseline every line.
    public func checkEquivalence() throws {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks {
            events += try parser.parse(chunk)
        }
        let expected = (0..<eventCount).map { number in
            ServerSentEvent(event: number.isMultiple(of: 10) ? "tick" : "message", data: payload(number), id: "\(number)")
        }
        guard events == expected else {
            throw WorkloadError("the parser found \(events.count) events, not the \(eventCount) expected, or other ones")
        }
        let lines = eventCount * 3 + (eventCount + 9) / 10 + (eventCount + 99) / 100 * 2
        guard baseline() == lines else {
            throw WorkloadError("the line splitter found \(baseline()) lines, not \(lines)")
        }
    }
}
