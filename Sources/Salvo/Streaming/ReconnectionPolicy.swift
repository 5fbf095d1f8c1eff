import Foundation

/// When a Server-Sent Events stream (``NetCall/events(resumingAfter:reconnection:maximumLineLength:)``)
/// connects again after its connection ended, how long it waits, and when it gives up.
///
/// ```swift
/// // The defaults: 3 s until the server sends `retry:`, doubling up to 30 s while connections
/// // keep failing, 5 failures in a row at most, GET and other idempotent methods only.
/// for try await event in call.events() { … }
///
/// // A server that sends a heartbeat comment every 15 s: 45 s of silence is a dropped connection.
/// for try await event in call.events(reconnection: ReconnectionPolicy(idleTimeout: 45)) { … }
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
/// `retry:` the server sent, else ``delay``. After a connection that worked (it opened and
/// delivered an event, however it ended) the next attempt waits exactly that. Attempts that fail
/// (no connection, or a connection that ended before its first event) wait longer each time, as
/// the standard allows after a failed attempt (an exponential backoff, so that a struggling server
/// is not hammered): the reconnection time doubles with each failed attempt up to
/// ``maximumDelay``, less a random part of up to ``jitter`` of it so that many clients dropped at
/// once do not come back at once, and never below the reconnection time. A connection that
/// delivered an event, or stayed open for ``backoffResetInterval``, starts the doubling over.
///
/// Each connection goes through the call's firing function and actions, so a ``RetryAction``
/// still retries a `503` within one connection. A status outside 200–299, a content type other
/// than `text/event-stream`, and a `204 No Content` end the stream for good instead.
public struct ReconnectionPolicy: Sendable {
    /// Seconds to wait before reconnecting until the server sends a `retry:` field: 3, as in browsers.
    public var delay: TimeInterval
    /// The longest wait the backoff grows to, in seconds: 30. A server's `retry:` longer than
    /// that is still waited in full.
    public var maximumDelay: TimeInterval
    /// The share of a backed-off wait that is random, from 0 (none) to 1: 0.5, so a wait of 12 s
    /// becomes one between 6 s and 12 s (never below the reconnection time). A reconnection after
    /// a connection that delivered events, or lasted, waits the reconnection time exactly.
    public var jitter: Double
    /// Seconds a connection that delivered no event (heartbeat comments only, say) must stay open
    /// for the next reconnection to wait the reconnection time again rather than a backed-off
    /// one: 60. A connection that delivered an event starts the backoff over however briefly it lasted.
    public var backoffResetInterval: TimeInterval
    /// Seconds without a single byte (an event, a comment, anything) after which a connection is
    /// taken as dropped and the stream reconnects; `nil`, the default, waits as long as the
    /// transport does, as a browser would. Set it above the interval at which the server sends
    /// heartbeat comments. Measured on ``clock``: with ``NetworkClock/immediate`` it passes at once.
    public var idleTimeout: TimeInterval?
    /// How many connections in a row may fail before the stream gives up and throws the last
    /// one's error; an event arriving resets the count.
    ///
    /// A connection fails when it ends in a transport error (refused, timed out, dropped, silent
    /// past ``idleTimeout``) before an event arrived on it. One that delivered events and then
    /// dropped is resumed without counting, and a body that ends cleanly is no failure either:
    /// servers end streams that way on purpose, and answer `204 No Content` to stop a client for
    /// good. With 0, the first connection that fails ends the stream.
    public var maximumFailures: Int
    /// The methods whose streams reconnect: the idempotent ones by default, so a `POST` (a chat
    /// model's answer, say) is never sent twice. A stream of another method ends with its body,
    /// and throws when its connection drops.
    public var methods: Set<HTTPMethod>
    /// What waits before each reconnection and measures idle time: ``NetworkClock/live``, or a test clock.
    public var clock: NetworkClock
    /// A random number in 0..<1 for the jitter; swapped by Salvo's own tests.
    var randomFraction: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// A reconnection policy; every parameter has the default a browser's `EventSource` would use,
    /// with the backoff the standard allows: 3 s until the server says otherwise, backing off up
    /// to 30 s, at most 5 failures in a row, idempotent methods only, no idle timeout.
    ///
    /// - Parameters:
    ///   - delay: seconds to wait before reconnecting until the server sends `retry:`.
    ///   - maximumDelay: the longest wait the backoff grows to, in seconds.
    ///   - jitter: the share of a backed-off wait that is random, from 0 to 1.
    ///   - backoffResetInterval: seconds a connection must stay open to start the backoff over.
    ///   - idleTimeout: seconds without a byte after which a connection counts as dropped; `nil` for none.
    ///   - maximumFailures: failed connections in a row tolerated before the stream throws.
    ///   - methods: the methods whose streams reconnect.
    ///   - clock: what waits and measures time.
    public init(
        delay: TimeInterval = 3,
        maximumDelay: TimeInterval = 30,
        jitter: Double = 0.5,
        backoffResetInterval: TimeInterval = 60,
        idleTimeout: TimeInterval? = nil,
        maximumFailures: Int = 5,
        methods: Set<HTTPMethod> = HTTPMethod.idempotentMethods,
        clock: NetworkClock = .live
    ) {
        self.delay = delay
        self.maximumDelay = maximumDelay
        self.jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        self.backoffResetInterval = backoffResetInterval
        self.idleTimeout = idleTimeout.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.maximumFailures = max(0, maximumFailures)
        self.methods = methods
        self.clock = clock
    }

    /// Never reconnects: the stream ends with its body, and throws when the connection drops.
    public static var never: ReconnectionPolicy { ReconnectionPolicy(maximumFailures: 0, methods: []) }

    /// Whether a stream of `call` reconnects at all.
    func reconnects(_ call: NetCall) -> Bool {
        methods.contains(call.endpoint.method)
    }

    /// The wait before a reconnection: `reconnectionTime` for the first since the backoff started
    /// over (`attempt` 0: after a connection that worked), then doubling with each failed attempt
    /// up to ``maximumDelay``, less up to ``jitter`` of it.
    func wait(before attempt: Int, reconnectionTime: TimeInterval) -> TimeInterval {
        guard attempt > 0, reconnectionTime > 0 else { return reconnectionTime }
        let ceiling = max(maximumDelay, reconnectionTime)
        let backedOff = min(ceiling, reconnectionTime * pow(2, Double(min(attempt, 32))))
        return max(reconnectionTime, backedOff * (1 - jitter * randomFraction()))
    }
}
