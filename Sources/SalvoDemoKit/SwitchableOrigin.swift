import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// A session in front of the catalogue's server that the demo can take away: while
/// ``isReachable`` is false every request fails as if the device were offline, so the demo can
/// show the cache serving the catalogue with the server gone.
///
/// ```swift
/// let origin = SwitchableOrigin(wrapping: CatalogEnvironment.offlineSession)
/// call.firingFunction = .caching(in: cache, policy: .offlineFirst, through: origin)
/// origin.isReachable = false      // the next call is answered from the cache, flagged stale
/// ```
public final class SwitchableOrigin: NetworkSession {
    private let wrapped: any NetworkSession
    private let reachable = Locked(true)

    /// A reachable origin that sends requests through `wrapped`.
    public init(wrapping wrapped: any NetworkSession) {
        self.wrapped = wrapped
    }

    /// Whether requests reach the server; when false they fail with `URLError(.notConnectedToInternet)`.
    public var isReachable: Bool {
        get { reachable.withLock { $0 } }
        set { reachable.withLock { $0 = newValue } }
    }

    /// Sends `request` through the wrapped session, or fails it at once while unreachable.
    @_spi(Transport) public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        guard isReachable else {
            receiver.finish(URLError(.notConnectedToInternet))
            return FinishedSessionTask()
        }
        return wrapped.start(request, options: options, receiver: receiver)
    }
}
