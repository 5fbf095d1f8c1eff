import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTPCompression
@_spi(Transport) import Salvo
import Tracing

/// A ``Salvo/NetworkSession`` that sends requests through AsyncHTTPClient, SwiftNIO's HTTP client:
/// the transport for servers and services, where `URLSession` on Linux costs three times the CPU.
///
/// It reports exchanges as `URLSession` does, so everything above the session works unchanged:
/// typed calls, actions (auth, refresh on 401, retry), the pager, streams, uploads, downloads,
/// record and replay, and the same ``Salvo/NetworkError`` for the same failure.
///
/// ```swift
/// // Every call of a service, through the process-wide client:
/// let firing = FiringFunction.asyncHTTPClient()
///
/// // A client of your own, shut down when the service stops:
/// let session = AsyncHTTPClientSession()
/// let user = try await NetCall(server: api, endpoint: .get("/users/1"), firingFunction: .asyncHTTPClient(session)).value(as: User.self)
/// try await session.shutdown()
/// ```
///
/// **Who owns the `HTTPClient`.** A session made with ``init(configuration:eventLoopGroup:cookieStorage:)``
/// creates its client and owns it: ``shutdown()`` shuts it down, and if nobody did, the last copy of
/// the session to go away does. A session made with ``init(client:cookieStorage:)`` borrows yours and
/// never shuts it down. ``shared`` lives as long as the process. A call fired after its client
/// was shut down fails with ``Salvo/NetworkError/transport(_:)`` saying so; it never hangs.
///
/// **Redirects** are followed by the session, not by AsyncHTTPClient, with Salvo's rules
/// (`URLRequest.redirected(by:redirectCount:)`): the method and body `URLSession` keeps,
/// credentials kept on their origin, 20 at most. A borrowed client must therefore not follow
/// redirects itself (``clientConfiguration`` does not); one that does fails a redirected call with
/// a message saying so.
///
/// **Timeouts** come from `URLRequest.timeoutInterval` (an endpoint's `.timeout(_:)`), as in
/// `URLSession`: the longest the exchange may go without sending or receiving a byte, to the
/// millisecond (Linux `URLSession` rounds to whole seconds).
///
/// **Cookies** are kept only in a `cookieStorage` you pass: a server calling APIs for many users
/// must not mix their cookies, so by default none are stored or sent beyond a request's own
/// `Cookie` header.
public struct AsyncHTTPClientSession: NetworkSession {
    /// The client that sends the requests.
    public let client: HTTPClient
    /// Where cookies responses set are stored and sent from; `nil` keeps none.
    public let cookieStorage: HTTPCookieStorage?
    /// Shuts the client down when the last copy of an owning session goes away; `nil` when the
    /// session borrows its client or is ``shared``.
    private let owner: ClientOwner?
    /// Ends the session's exchanges that go idle for their whole timeout.
    let idleWatch: IdleWatch
    /// Picks the event loop of each exchange.
    let loopAffinity: LoopAffinity

    /// Whether the session created its client, so that ``shutdown()`` shuts it down.
    public var isClientOwner: Bool { owner != nil }

    /// A session with a client of its own, on `eventLoopGroup`; shut it down with ``shutdown()``.
    ///
    /// - Parameters:
    ///   - configuration: the client's configuration; keep its redirects disallowed (Salvo follows
    ///     them) and its decompression on (as `URLSession` decompresses), as ``clientConfiguration`` has them.
    ///   - eventLoopGroup: the event loops the client runs on; SwiftNIO's shared group by default.
    ///   - cookieStorage: where cookies are kept; `nil` (the default) keeps none.
    public init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientSession.clientConfiguration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        cookieStorage: HTTPCookieStorage? = nil
    ) {
        let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.client = client
        self.cookieStorage = cookieStorage
        owner = ClientOwner(client)
        idleWatch = IdleWatch(on: client.eventLoopGroup.next())
        loopAffinity = LoopAffinity(group: client.eventLoopGroup)
    }

    /// A session over `client`, which stays yours: the session never shuts it down.
    ///
    /// - Parameters:
    ///   - client: a client that does not follow redirects and decompresses responses, such as
    ///     one made with ``clientConfiguration``.
    ///   - cookieStorage: where cookies are kept; `nil` (the default) keeps none.
    public init(client: HTTPClient, cookieStorage: HTTPCookieStorage? = nil) {
        self.client = client
        self.cookieStorage = cookieStorage
        owner = nil
        idleWatch = IdleWatch(on: client.eventLoopGroup.next())
        loopAffinity = LoopAffinity(group: client.eventLoopGroup)
    }

    /// The process-wide session: a client of Salvo's own on SwiftNIO's shared event loops, which
    /// is never shut down, and no cookie storage.
    ///
    /// It is not `HTTPClient.shared`: that client follows redirects itself, with AsyncHTTPClient's
    /// rules, where Salvo must apply its own.
    public static let shared = AsyncHTTPClientSession(sharedClient: HTTPClient(configuration: clientConfiguration))

    private init(sharedClient: HTTPClient) {
        client = sharedClient
        cookieStorage = nil
        owner = nil
        idleWatch = IdleWatch(on: sharedClient.eventLoopGroup.next())
        loopAffinity = LoopAffinity(group: sharedClient.eventLoopGroup)
    }

    /// The client configuration the session needs: redirects left to Salvo, responses
    /// decompressed (gzip and deflate, without a ratio limit, as `URLSession`), a refused
    /// connection failing at once (not retried until a connect timeout), and the request's own
    /// timeout rather than a read timeout of the client's.
    ///
    /// **Tracing.** When the process has bootstrapped a tracer (`InstrumentationSystem.bootstrap`)
    /// before the configuration is made, the client traces every request with it, as
    /// AsyncHTTPClient does. When it has not, tracing is off: AsyncHTTPClient would otherwise name a
    /// span and set its attributes on every request, on the event loop, for a tracer that drops
    /// them (about 45k instructions per small request, Docs/ServerSide.md).
    ///
    /// Start from it to make a client of your own, for example with a larger pool:
    /// ```swift
    /// var configuration = AsyncHTTPClientSession.clientConfiguration
    /// configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
    /// let session = AsyncHTTPClientSession(configuration: configuration)
    /// ```
    public static var clientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(60), read: nil),
            decompression: .enabled(limit: .none)
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        if configuration.tracing.tracer is NoOpTracer {
            configuration.tracing.tracer = nil
        }
        return configuration
    }

    /// Starts `request` and reports the exchange to `receiver`: the head, the body as it arrives,
    /// upload progress, and the end.
    ///
    /// A body read whole is collected on the client's event loop; a streamed body (or one whose
    /// progress is reported: `options.readsBodyAsItArrives`) reaches `receiver` from a queue of the exchange's own, and the next
    /// part is read from the network only once `receiver` has taken the previous one.
    @_spi(Transport) public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        Exchange.start(request, on: self, options: options, reportingTo: receiver)
    }

    /// Shuts the session's own client down, failing calls still in flight.
    ///
    /// - Throws: `HTTPClientError.shutdownUnsupported` when the session borrows its client or is
    ///   ``shared``: shut a borrowed client down where you created it. A second shutdown throws
    ///   `HTTPClientError.alreadyShutdown`.
    public func shutdown() async throws {
        guard let owner else { throw HTTPClientError.shutdownUnsupported }
        try await owner.shutdown()
    }
}

/// Owns a session's client: shuts it down on request, or when the last session holding it goes
/// away (AsyncHTTPClient stops a debug build that releases a client still running).
private final class ClientOwner: Sendable {
    let client: HTTPClient

    init(_ client: HTTPClient) {
        self.client = client
    }

    func shutdown() async throws {
        try await client.shutdown()
    }

    deinit {
        // Does not wait: the client keeps itself alive until its shutdown completes. A client
        // already shut down answers with an error, which is of no interest here.
        let client = client
        client.shutdown().whenComplete { _ in }
    }
}
