import Foundation

/// One event of a Server-Sent Events (`text/event-stream`) body, as the WHATWG rules dispatch it.
///
/// ```swift
/// for try await event in pricesCall.events() where event.event == "price" {
///     let price = try event.decode(Price.self)
/// }
/// ```
public struct ServerSentEvent: Sendable {
    /// The event's type: the block's `event:` field, or `"message"` when it had none.
    public var event: String
    /// The block's `data:` lines joined with LF (`"\n"`), without a final line break.
    public var data: String
    /// The last event ID in effect when the event was dispatched: this block's `id:` field, or
    /// the latest one before it. `nil` when none was set or an empty `id:` field reset it.
    public var id: String?
    /// The reconnection time this block's own `retry:` field asked for, in seconds (the field gives
    /// milliseconds); `nil` when it had none. The stream keeps the latest one of the whole
    /// stream for its reconnections. A negative or NaN value reads back as `nil`.
    public var retry: TimeInterval? {
        get { retrySeconds >= 0 ? retrySeconds : nil }
        set { retrySeconds = newValue.map { $0 >= 0 ? $0 : -1 } ?? -1 }
    }

    /// `retry`, or -1 for none. Not stored as `TimeInterval?`: with that optional the struct lowers
    /// to eight scalar parts, and the optimizer then has `Array.append` copy and destroy each event
    /// instead of moving it; parsing small events measured 20–30% slower that way.
    private var retrySeconds: TimeInterval
    /// The decoder of the server whose stream delivered the event, for ``decode(_:using:)``;
    /// `nil` for an event made or parsed by hand. Not part of the event's value.
    var serverDecoder: JSONDecoder? {
        get { parsing.decoder }
        set { parsing.decoder = newValue }
    }
    private var parsing = ParsingDecoder()

    /// An event with the given fields; parsers build them, tests and canned streams do too.
    ///
    /// - Parameters:
    ///   - event: the event's type, `"message"` unless the stream named one.
    ///   - data: the event's data, lines joined with LF.
    ///   - id: the last event ID in effect, `nil` for none.
    ///   - retry: the reconnection time the event's block asked for, in seconds, if any.
    public init(event: String = "message", data: String, id: String? = nil, retry: TimeInterval? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retrySeconds = -1
        self.retry = retry
    }

    /// The event's data decoded from JSON, the usual way an event carries a value.
    ///
    /// ```swift
    /// let tick = try event.decode(Tick.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder to use; `nil` (the default) uses the ``ServerConfig/decoder`` of
    ///     the call whose stream delivered the event, or a plain `JSONDecoder` for an event made or
    ///     parsed by hand.
    /// - Returns: the decoded value.
    /// - Throws: ``NetworkError/decoding(_:)`` with the data as the body when it is not a `T`.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder? = nil) throws(NetworkError) -> T {
        let body = Data(data.utf8)
        do {
            return try (decoder ?? serverDecoder ?? JSONDecoder()).decode(type, from: body)
        } catch {
            throw .decoding(DecodingProblem(error, body: body, type: type))
        }
    }
}

/// Equal when both events have the same type, data, ID and retry time; the decoder they carry
/// is not part of their value.
extension ServerSentEvent: Hashable {}

/// The decoder an event's `decode(_:using:)` uses unless given one, as a field that every
/// instance equals, so that it is not part of the event's value.
struct ParsingDecoder: Sendable, Hashable {
    var decoder: JSONDecoder?

    static func == (lhs: ParsingDecoder, rhs: ParsingDecoder) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
