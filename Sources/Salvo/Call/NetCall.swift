import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
///
/// A call builds its `URLRequest` when it is configured (created, or given a new server or
/// endpoint), not each time it fires: firing a configured call again only runs its actions,
/// sends, and dispatches. An invalid request is still reported when the call fires.
public struct NetCall: Fireable, Sendable {
    /// The server the call goes to.
    public var server: ServerConfig {
        didSet {
            configuredRequest = Self.build(server, endpoint)
            if followsServerFiring { firing = server.firingFunction }
        }
    }
    /// What the call asks of the server.
    public var endpoint: Endpoint {
        didSet { configuredRequest = Self.build(server, endpoint) }
    }
    /// Who receives the outcome.
    public var responder: NetworkResponder
    /// Actions for this call only; they run after the server's.
    public var actions: [any NetworkAction]
    /// Where the responder's handlers run.
    public var callbackQueue: CallbackQueue
    /// How the call is fired: production, mock, replay, a spy. Unless the call sets its own, this is
    /// its server's ``ServerConfig/firingFunction``, so one line swaps it for every call to that server.
    public var firingFunction: FiringFunction {
        get { firing }
        set {
            firing = newValue
            followsServerFiring = false
        }
    }
    /// The firing function in effect, resolved when the call is configured (like its request):
    /// the call's own, or its server's, kept in step with `server`. Firing reads it directly.
    private(set) var firing: FiringFunction
    /// Whether ``firing`` is the server's (the call set none of its own).
    private var followsServerFiring: Bool
    /// The request `server` and `endpoint` describe, or why there is none; kept in step with both.
    private(set) var configuredRequest: Result<URLRequest, NetworkError>
    /// A call from its parts.
    public init(
        server: ServerConfig,
        endpoint: Endpoint,
        responder: NetworkResponder = NetworkResponder(),
        actions: [any NetworkAction] = [],
        callbackQueue: CallbackQueue = .main,
        firingFunction: FiringFunction? = nil
    ) {
        self.server = server
        self.endpoint = endpoint
        self.responder = responder
        self.actions = actions
        self.callbackQueue = callbackQueue
        self.firing = firingFunction ?? server.firingFunction
        self.followsServerFiring = firingFunction == nil
        self.configuredRequest = Self.build(server, endpoint)
    }

    /// Fires the call through its ``firingFunction``, handing the outcome to its ``responder`` on
    /// its ``callbackQueue``.
    @discardableResult
    public func fire() -> NetworkTask {
        firing(self, .responder(responder, on: callbackQueue))
    }
}
