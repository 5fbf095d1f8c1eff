import Foundation

/// Splits a body that arrives in chunks into lines, wherever the chunk boundaries fall.
///
/// A line ends at LF, CR or CRLF, and is handed out without its terminator. A CR that ends one
/// chunk and an LF that starts the next are one line end: the line goes out at the CR, and the LF
/// is skipped when it arrives. Only the start of an unfinished line is kept between chunks, and no
/// line may be longer than ``maximumLineLength`` bytes, so memory stays bounded whatever a server
/// sends.
///
/// ```swift
/// var splitter = LineSplitter()
/// for try await chunk in chunks {
///     for line in try splitter.lines(in: chunk) { show(line) }
/// }
/// if let last = splitter.finish() { show(last) }
/// ```
///
/// After it throws, the stream is broken: start over with a new splitter.
struct LineSplitter: Sendable {
    /// 1 MiB: far above any sane line, far below what would strain a phone.
    static let defaultMaximumLineLength = 1 << 20

    /// The longest line accepted, in bytes without its terminator.
    let maximumLineLength: Int
    /// The start of a line whose end has not arrived yet.
    private var partialLine: [UInt8] = []
    /// Whether the last chunk ended in a CR, so an LF at the start of the next one is its other half.
    private var endedWithCR = false

    /// A splitter that refuses lines longer than `maximumLineLength` bytes.
    init(maximumLineLength: Int = defaultMaximumLineLength) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// The lines `chunk` completes, decoded as UTF-8.
    ///
    /// Invalid UTF-8 becomes U+FFFD (the replacement character) rather than an error, as the
    /// WHATWG UTF-8 decode that Server-Sent Events mandate does: one bad byte does not end a stream.
    ///
    /// - Throws: ``NetworkError/unacceptableResponse(_:)`` when a line grows past ``maximumLineLength``.
    mutating func lines(in chunk: Data) throws(NetworkError) -> [String] {
        var lines: [String] = []
        try forEachLine(in: chunk) { bytes in lines.append(Self.text(bytes)) }
        return lines
    }

    /// Ends the stream: the last line when the body did not end with a line break, else `nil`.
    ///
    /// The splitter is then ready for a new stream.
    mutating func finish() -> String? {
        defer {
            partialLine = []
            endedWithCR = false
        }
        return partialLine.isEmpty ? nil : partialLine.withUnsafeBytes(Self.text)
    }

    /// Calls `body` with the bytes of each line `chunk` completes, in order, without terminators.
    ///
    /// The bytes are valid only during the call. This is the allocation-free path parsers build on.
    ///
    /// - Throws: ``NetworkError/unacceptableResponse(_:)`` when a line grows past
    ///   ``maximumLineLength``, or what `body` throws.
    mutating func forEachLine(
        in chunk: Data,
        _ body: (UnsafeRawBufferPointer) throws(NetworkError) -> Void
    ) throws(NetworkError) {
        var failure: NetworkError?
        chunk.withUnsafeBytes { bytes in
            do throws(NetworkError) {
                try scan(bytes, body)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Appends with one copy; `append(contentsOf:)` of raw bytes would go byte by byte.
    private static func append(_ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        bytes.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
    }

    /// `bytes` decoded as UTF-8, invalid sequences replaced by U+FFFD.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
    }

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// Finds line ends with `memchr`, keeping the next LF and the next CR found so each byte is
    /// searched at most once per terminator kind, even in a CR-only stream.
    private mutating func scan(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(NetworkError) -> Void
    ) throws(NetworkError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let end = bytes.count
        var start = 0
        if endedWithCR {
            endedWithCR = false
            if bytes[0] == Self.lineFeed { start = 1 }
        }
        var nextLF = -1
        var nextCR = -1
        while start < end {
            if nextLF < start { nextLF = Self.find(Self.lineFeed, in: base, from: start, to: end) }
            if nextCR < start { nextCR = Self.find(Self.carriageReturn, in: base, from: start, to: end) }
            let stop = min(nextLF, nextCR)
            if stop == end { break }
            try complete(UnsafeRawBufferPointer(start: base + start, count: stop - start), body)
            if stop == nextLF {
                start = stop + 1
            } else if stop + 1 < end {
                start = bytes[stop + 1] == Self.lineFeed ? stop + 2 : stop + 1
            } else {
                start = end
                endedWithCR = true
            }
        }
        if start < end {
            let rest = UnsafeRawBufferPointer(start: base + start, count: end - start)
            try checkLength(partialLine.count + rest.count)
            Self.append(rest, to: &partialLine)
        }
    }

    /// Hands out a line whose end just arrived, joined to its start from earlier chunks if any.
    @inline(__always)
    private mutating func complete(
        _ tail: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(NetworkError) -> Void
    ) throws(NetworkError) {
        try checkLength(partialLine.count + tail.count)
        if partialLine.isEmpty {
            return try body(tail)
        }
        Self.append(tail, to: &partialLine)
        var failure: NetworkError?
        partialLine.withUnsafeBytes { line in
            do throws(NetworkError) {
                try body(line)
            } catch {
                failure = error
            }
        }
        // A rare huge line should not pin its buffer for the rest of the stream.
        partialLine.removeAll(keepingCapacity: partialLine.capacity <= 64 * 1024)
        if let failure { throw failure }
    }

    private func checkLength(_ length: Int) throws(NetworkError) {
        guard length > maximumLineLength else { return }
        throw .unacceptableResponse(ResponseProblem(
            "a line of the body is longer than \(maximumLineLength) bytes without a line break; "
                + "if the server's lines are meant to be that long, raise maximumLineLength"
        ))
    }

    /// The offset of the first `byte` in `base[start..<end]`, or `end` when there is none.
    private static func find(_ byte: UInt8, in base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        guard let found = memchr(base + start, Int32(byte), end - start) else { return end }
        return UnsafeRawPointer(found) - base
    }
}
