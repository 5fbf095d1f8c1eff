import Foundation

/// Turns a `text/event-stream` body, fed chunk by chunk, into ``ServerSentEvent``s, following the
/// WHATWG HTML rules for interpreting an event stream.
///
/// Chunk boundaries may fall anywhere, even inside a character or between a CR and its LF; every
/// way of cutting the same bytes gives the same events. The rules, in short: one leading UTF-8 BOM
/// is dropped; a line ends at LF, CR or CRLF; a line starting with `:` is a comment; `field: value`
/// splits at the first colon and loses one space after it; `data` lines are joined with LF; a blank
/// line dispatches the event (none when it had no `data`); an `id` holding NUL is ignored; `retry`
/// counts only when it is all ASCII digits; other fields are ignored. Invalid UTF-8 becomes U+FFFD.
///
/// ```swift
/// var parser = ServerSentEventParser(lastEventID: savedID)
/// for try await chunk in body {
///     for event in try parser.parse(chunk) { handle(event) }
/// }
/// parser.finish()  // an event cut off by the end of the body is dropped
/// // reconnect with "Last-Event-ID: \(parser.lastEventID)" after parser.reconnectionTime
/// ```
///
/// Memory stays bounded: a line may hold at most ``maximumLineLength`` bytes and one event's data
/// at most ``maximumDataLength`` (8 × the line limit), so a server that never sends a line break
/// or a blank line gets a clear error instead of an ever-growing buffer.
///
/// Apps read events with `call.events()`, which uses this parser; tests and benchmarks that feed
/// it bytes themselves reach it with `@_spi(Testing) import Salvo`.
@_spi(Testing) public struct ServerSentEventParser: Sendable {
    /// The stream's last event ID: what a reconnection sends as `Last-Event-ID` (none when empty).
    ///
    /// It changes when an event block ends (at its blank line), to the latest `id:` field before
    /// it; an empty `id:` field resets it to `""`. Set it to resume from an ID saved earlier.
    @_spi(Testing) public var lastEventID: String {
        get { buffers.lastEventID }
        set {
            buffers.lastEventID = newValue
            buffers.pendingID = nil
        }
    }

    /// The reconnection time the latest valid `retry:` field asked for, in seconds (the field
    /// gives milliseconds); `nil` until one arrives.
    @_spi(Testing) public var reconnectionTime: TimeInterval? { buffers.reconnectionTime }

    /// The longest line accepted, in bytes without its line break.
    @_spi(Testing) public var maximumLineLength: Int { splitter.maximumLineLength }

    /// The most data one event may gather, in bytes counting the LF after each `data` line:
    /// 8 × ``maximumLineLength``.
    @_spi(Testing) public var maximumDataLength: Int { buffers.maximumDataLength }

    private var splitter: LineSplitter
    private var buffers: EventBuffers
    /// The first bytes of the stream while they may still be the start of a BOM; `nil` once past it.
    private var streamStart: [UInt8]? = []

    /// A parser for a new stream.
    ///
    /// - Parameters:
    ///   - lastEventID: the last event ID to start from, e.g. one saved before the app quit.
    ///   - maximumLineLength: the longest line accepted, in bytes (1 MiB by default); an event's
    ///     data may grow to 8 times that.
    @_spi(Testing) public init(lastEventID: String = "", maximumLineLength: Int = 1 << 20) {
        splitter = LineSplitter(maximumLineLength: maximumLineLength)
        let (dataLimit, overflow) = splitter.maximumLineLength.multipliedReportingOverflow(by: 8)
        buffers = EventBuffers(lastEventID: lastEventID, maximumDataLength: overflow ? Int.max : dataLimit)
    }

    /// The events that `chunk`, the next bytes of the stream, completes, in order.
    ///
    /// - Parameter chunk: the next bytes of the body, cut anywhere.
    /// - Returns: the events whose blank line is in `chunk`; often none.
    /// - Throws: ``NetworkError/unacceptableResponse(_:)`` when a line grows past
    ///   ``maximumLineLength`` or an event's data past ``maximumDataLength``. The stream cannot go
    ///   on after that; events finished earlier in the same chunk are lost with it.
    @_spi(Testing) public mutating func parse(_ chunk: Data) throws(NetworkError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try parse(chunk, into: &events)
        return events
    }

    /// The decoder the events it parses use for `decode(_:)` unless given one: the server's, set
    /// by the event stream's reader; `nil` (a parser used on its own) means a plain `JSONDecoder`.
    var serverDecoder: JSONDecoder? {
        get { buffers.serverDecoder }
        set { buffers.serverDecoder = newValue }
    }

    /// Whether ``takeComments()`` gets the comment lines; off, they are skipped unread.
    var keepsComments: Bool {
        get { buffers.comments != nil }
        set { buffers.comments = newValue ? (buffers.comments ?? []) : nil }
    }

    /// The comment lines parsed since the last call, each with the number of events the same
    /// ``parse(_:)`` call had completed before it, so they can be put back in order.
    mutating func takeComments() -> [(position: Int, text: String)] {
        guard let comments = buffers.comments, !comments.isEmpty else { return [] }
        buffers.comments = []
        return comments
    }

    /// Appends the events `chunk` completes to `events`.
    private mutating func parse(_ chunk: Data, into events: inout [ServerSentEvent]) throws(NetworkError) {
        guard let bytes = streamStart == nil ? chunk : droppingByteOrderMark(from: chunk) else { return }
        try splitter.forEachLine(in: bytes) { line throws(NetworkError) in try buffers.process(line, into: &events) }
    }

    /// Ends the stream, dropping an event it cut off, and readies the parser for a reconnection.
    ///
    /// Under the WHATWG rules only a blank line dispatches an event, so nothing is left to hand
    /// out: the result is always empty, and an unfinished event is discarded. ``lastEventID`` and
    /// ``reconnectionTime`` are kept; the next bytes are parsed as a new stream (which may start
    /// with a BOM again).
    @discardableResult
    @_spi(Testing) public mutating func finish() -> [ServerSentEvent] {
        _ = splitter.finish()
        buffers.endStream()
        streamStart = []
        return []
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The bytes to split once a leading BOM, possibly cut across chunks, is dropped; `nil` while
    /// the stream's first bytes may still turn out to be one.
    private mutating func droppingByteOrderMark(from chunk: Data) -> Data? {
        let held = streamStart ?? []
        let start = held + chunk.prefix(Self.byteOrderMark.count - held.count)
        guard Self.byteOrderMark.starts(with: start) else {
            streamStart = nil
            return held.isEmpty ? chunk : Data(held) + chunk
        }
        guard start.count == Self.byteOrderMark.count else {
            streamStart = start
            return nil
        }
        streamStart = nil
        return chunk.dropFirst(Self.byteOrderMark.count - held.count)
    }
}

/// The buffers the WHATWG rules keep for an event stream, and what each line does to them.
///
/// Values move from the buffers into the event at dispatch rather than being copied, which keeps
/// a small event's cost near that of splitting its lines (the SSE rows of `salvo-bench-ratios`).
private struct EventBuffers: Sendable {
    /// The last event ID string, which a block's end sets from the last event ID buffer.
    var lastEventID: String
    /// The `id:` value the current block set, if any: the rules' last event ID buffer is this,
    /// or ``lastEventID`` when it is `nil`.
    var pendingID: String?
    var reconnectionTime: TimeInterval?
    let maximumDataLength: Int
    /// The block's `data` lines joined with LF. Kept without the LF the rules append to the last
    /// line (they remove it at dispatch), so a one-line event's data is decoded once and never copied.
    private var data = ""
    /// The bytes the rules' data buffer would hold, each line's LF included; 0 before any `data` line.
    private var dataLength = 0
    /// The event type buffer; `nil` for empty.
    private var eventType: String?
    private var retry: TimeInterval?
    /// Comment lines, without the colon and one space after it, each with the number of events
    /// before it; `nil` when nobody wants them.
    var comments: [(position: Int, text: String)]?
    /// Given to each event as it is made (see ``ServerSentEventParser/serverDecoder``).
    var serverDecoder: JSONDecoder?

    init(lastEventID: String, maximumDataLength: Int) {
        self.lastEventID = lastEventID
        self.maximumDataLength = maximumDataLength
    }

    /// Applies one line (without its line break) to the buffers, dispatching at a blank line.
    @inline(__always)
    mutating func process(_ line: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) throws(NetworkError) {
        guard let base = line.baseAddress, !line.isEmpty else {
            return dispatch(into: &events)
        }
        if line[0] == Ascii.colon {
            if comments != nil {
                let start = line.count > 1 && line[1] == Ascii.space ? 2 : 1
                comments?.append((events.count, LineSplitter.text(UnsafeRawBufferPointer(rebasing: line[start...]))))
            }
            return
        }
        let count = line.count
        // Field names are short: a plain loop beats a memchr call here.
        var nameLength = 0
        while nameLength < count, line[nameLength] != Ascii.colon { nameLength += 1 }
        var valueStart = min(nameLength + 1, count)
        if valueStart < count, line[valueStart] == Ascii.space { valueStart += 1 }
        let value = UnsafeRawBufferPointer(start: base + valueStart, count: count - valueStart)
        switch nameLength {
        case 4 where Ascii.matches(base, "data"):
            try appendData(value)
        case 5 where Ascii.matches(base, "event"):
            eventType = value.isEmpty ? nil : LineSplitter.text(value)
        case 2 where Ascii.matches(base, "id"):
            if !value.contains(0) {
                pendingID = LineSplitter.text(value)
            }
        case 5 where Ascii.matches(base, "retry"):
            if let milliseconds = Ascii.digits(value) {
                retry = TimeInterval(milliseconds) / 1_000
                reconnectionTime = retry
            }
        default:
            break
        }
    }

    /// Forgets a block cut off by the end of the stream; the last event ID carries over.
    mutating func endStream() {
        data = ""
        dataLength = 0
        eventType = nil
        retry = nil
        pendingID = nil
    }

    private mutating func appendData(_ value: UnsafeRawBufferPointer) throws(NetworkError) {
        let length = dataLength + value.count + 1
        guard length <= maximumDataLength else {
            throw .unacceptableResponse(ResponseProblem(
                "an event's data grew past \(maximumDataLength) bytes without the blank line that ends it; "
                    + "if the server's events are meant to be that large, raise maximumLineLength (the data limit is 8 times it)"
            ))
        }
        if dataLength == 0 {
            data = LineSplitter.text(value)
        } else {
            data.append("\n")
            data.append(LineSplitter.text(value))
        }
        dataLength = length
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        if let id = pendingID.take() { lastEventID = id }
        if dataLength > 0 {
            var text = ""
            swap(&text, &data)
            dataLength = 0
            var event = ServerSentEvent(
                event: eventType.take() ?? "message",
                data: text,
                id: lastEventID.isEmpty ? nil : lastEventID,
                retry: retry
            )
            event.serverDecoder = serverDecoder
            events.append(event)
        } else {
            eventType = nil
        }
        retry = nil
    }
}

/// The bytes the event stream format is written in.
private enum Ascii {
    static let space: UInt8 = 0x20
    static let colon: UInt8 = 0x3A

    /// Whether the bytes at `base` start with `name` (the caller has checked the length).
    static func matches(_ base: UnsafeRawPointer, _ name: StaticString) -> Bool {
        memcmp(base, name.utf8Start, name.utf8CodeUnitCount) == 0
    }

    /// The value as a base-ten integer when it is one or more ASCII digits and fits in an `Int`.
    static func digits(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty else { return nil }
        var number = 0
        for byte in value {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (shifted, overflow1) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            number = sum
        }
        return number
    }
}
