import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FiringFunction {
    /// Fires through a ``CachingSession``: answers from `cache` where `policy` allows, and sends
    /// the rest through `session`.
    ///
    /// ```swift
    /// let cache = HTTPCache(store: .disk(in: cachesFolder))
    /// call.firingFunction = .caching(in: cache, policy: .offlineFirst)
    /// mockCall.firingFunction = .caching(in: cache, through: MockSession { _ in .json(user) })
    /// ```
    ///
    /// - Parameters:
    ///   - cache: where responses are kept; share it between calls that should see the same entries.
    ///   - policy: how the store and the network are chosen between; ``CachePolicy/protocolRules`` by default.
    ///   - session: what sends requests; `URLSession.shared` by default.
    ///   - clock: what waits before a retry an action asked for; ``NetworkClock/live`` by default.
    public static func caching(
        in cache: HTTPCache,
        policy: CachePolicy = .protocolRules,
        through session: any NetworkSession = URLSession.shared,
        clock: NetworkClock = .live
    ) -> FiringFunction {
        .session(CachingSession(wrapping: session, cache: cache, policy: policy), clock: clock)
    }
}
