import Foundation

/// The handlers ``WebSocketCall/fire()`` runs, each settable where the call is configured.
///
/// They run on the call's `callbackQueue`, in this order: `opened` once the handshake succeeded,
/// `message` for each message in order, then exactly one of `closed` (the connection ended
/// without an error: the peer's close frame, or `nil` when the app closed it) or `failed`.
///
/// ```swift
/// feed.responder.message = { message in ticker.show(message) }
/// feed.responder.failed = { error in banner.show(error.userMessage) }
/// feed.fire()   // anywhere: a caller that knows nothing of WebSockets
/// ```
public struct WebSocketResponder: Sendable {
    /// Runs once the connection is open; send the first messages from here.
    public var opened: (@Sendable (WebSocketConnection) -> Void)?
    /// Runs for each message, in order.
    public var message: (@Sendable (WebSocketMessage) -> Void)?
    /// Runs once when the connection ended without an error, with the peer's close if it sent one.
    public var closed: (@Sendable (WebSocketClose?) -> Void)?
    /// Runs once when the handshake or the connection failed, or the firing was cancelled.
    public var failed: (@Sendable (NetworkError) -> Void)?

    /// A responder from its handlers; each defaults to none.
    ///
    /// - Parameters:
    ///   - opened: runs once the connection is open.
    ///   - message: runs for each message.
    ///   - closed: runs when the connection ended without an error.
    ///   - failed: runs when it failed.
    public init(
        opened: (@Sendable (WebSocketConnection) -> Void)? = nil,
        message: (@Sendable (WebSocketMessage) -> Void)? = nil,
        closed: (@Sendable (WebSocketClose?) -> Void)? = nil,
        failed: (@Sendable (NetworkError) -> Void)? = nil
    ) {
        self.opened = opened
        self.message = message
        self.closed = closed
        self.failed = failed
    }
}
