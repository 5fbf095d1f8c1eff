import Foundation

/// A fireable call: a server, an endpoint, a responder, and how to fire them.
///
/// Configure it in one place and fire it anywhere, from code that knows neither server nor endpoint.
///
/// ```swift
/// // In the API module:
/// var userCall = NetCall(server: .production, endpoint: .get("/users/\(id)"))
/// userCall.responder = .decoding(User.self) { result in … }
///
/// // Anywhere else:
/// userCall.fire()
/// ```
public struct NetCall: Fireable, Sendable {
    /// The server the call goes to.
    public var server: ServerConfig
    /// What the call asks of the server.
    public var endpoint: Endpoint
    /// Who receives the outcome.
    public var responder: NetworkResponder
    /// Actions for this call only; they run after the server's.
    public var actions: [any NetworkAction]
    /// Where the responder's handlers run.
    public var callbackQueue: CallbackQueue
    /// How the call is fired: production, mock, replay, a spy — swap it to change all of them at once.
    public var firingFunction: FiringFunction

    /// A call from its parts.
    public init(
        server: ServerConfig,
        endpoint: Endpoint,
        responder: NetworkResponder = NetworkResponder(),
        actions: [any NetworkAction] = [],
        callbackQueue: CallbackQueue = .main,
        firingFunction: FiringFunction = .production
    ) {
        self.server = server
        self.endpoint = endpoint
        self.responder = responder
        self.actions = actions
        self.callbackQueue = callbackQueue
        self.firingFunction = firingFunction
    }

    /// Fires the call through its ``firingFunction``.
    @discardableResult
    public func fire() -> NetworkTask {
        firingFunction(self)
    }
}
