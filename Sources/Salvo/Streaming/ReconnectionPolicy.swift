import Foundation

/// When a Server-Sent Events stream (``NetCall/events(resumingAfter:reconnection:maximumLineLength:)``)
/// connects again after its connection ended, and when it gives up.
///
/// ```swift
/// // The defaults: 3 s until the server sends `retry:`, 5 failures in a row at most, GET and
/// // other idempotent methods only.
/// for try await event in call.events() { … }
///
/// // A chat model's answer: its end is the end, and a POST must not be sent twice.
/// for try await event in completionCall.events(reconnection: .never) { … }
///
/// // Tests: no waiting at all.
/// for try await event in call.events(reconnection: ReconnectionPolicy(clock: .immediate)) { … }
/// ```
///
/// As the WHATWG standard has it, a stream reconnects when its body ends, whether the server
/// closed it or the connection dropped, and waits the reconnection time first: the latest
/// `retry:` the server sent, else ``delay``. Each connection goes through the call's firing
/// function and actions, so a ``RetryAction`` still retries a `503` within one connection. A
/// status outside 200–299, a content type other than `text/event-stream`, and a `204 No Content`
/// end the stream for good instead.
public struct ReconnectionPolicy: Sendable {
    /// Seconds to wait before reconnecting until the server sends a `retry:` field: 3, as in browsers.
    public var delay: TimeInterval
    /// How many connections in a row may fail before the stream gives up and throws the last
    /// one's error; an event arriving resets the count.
    ///
    /// A connection fails when it ends in a transport error (refused, timed out, dropped) before
    /// an event arrived on it. One that delivered events and then dropped is resumed without
    /// counting, and a body that ends cleanly is no failure either: servers end streams that way
    /// on purpose, and answer `204 No Content` to stop a client for good. With 0, the first
    /// connection that fails ends the stream.
    public var maximumFailures: Int
    /// The methods whose streams reconnect: the idempotent ones by default, so a `POST` (a chat
    /// model's answer, say) is never sent twice. A stream of another method ends with its body,
    /// and throws when its connection drops.
    public var methods: Set<HTTPMethod>
    /// What waits before each reconnection: ``NetworkClock/live``, or a test clock.
    public var clock: NetworkClock

    /// A reconnection policy; every parameter has the default a browser's `EventSource` would use.
    ///
    /// - Parameters:
    ///   - delay: seconds to wait before reconnecting until the server sends `retry:`.
    ///   - maximumFailures: failed connections in a row tolerated before the stream throws.
    ///   - methods: the methods whose streams reconnect.
    ///   - clock: what waits.
    public init(
        delay: TimeInterval = 3,
        maximumFailures: Int = 5,
        methods: Set<HTTPMethod> = HTTPMethod.idempotentMethods,
        clock: NetworkClock = .live
    ) {
        self.delay = delay
        self.maximumFailures = max(0, maximumFailures)
        self.methods = methods
        self.clock = clock
    }

    /// The browser's defaults: 3 s until the server says otherwise, at most 5 failures in a row,
    /// idempotent methods only.
    public static var standard: ReconnectionPolicy { ReconnectionPolicy() }

    /// Never reconnects: the stream ends with its body, and throws when the connection drops.
    public static var never: ReconnectionPolicy { ReconnectionPolicy(maximumFailures: 0, methods: []) }

    /// Whether a stream of `call` reconnects at all.
    func reconnects(_ call: NetCall) -> Bool {
        methods.contains(call.endpoint.method)
    }
}
