import Foundation

/// How a ``CachingSession`` uses its ``HTTPCache``: which rule decides between the store and
/// the network, and whether identical requests share one exchange.
///
/// Choose per server (the server's firing function) or per call (a call's own firing function
/// over the same cache); a request's own `Cache-Control` directives (`no-store`, `no-cache`,
/// `max-age`, `max-stale`, `min-fresh`, `only-if-cached`) are honoured under every rule.
///
/// ```swift
/// let cache = HTTPCache(store: .disk(in: cachesFolder))
/// call.firingFunction = .caching(in: cache, policy: .offlineFirst)
/// ```
public struct CachePolicy: Sendable, Hashable {
    /// The rule that decides between the store and the network.
    public enum Rule: Sendable, Hashable {
        /// RFC 9111 and RFC 5861 as a private cache: fresh responses from the store, stale ones
        /// revalidated, stale ones served only where `stale-while-revalidate` or `stale-if-error` allow.
        case protocolRules
        /// Any stored response, however old, without asking the server; the network only on a miss.
        case cacheFirst
        /// Always the network (no conditional request); the answer is still stored, so a later
        /// offline-first call can serve it.
        case networkOnly
        /// The protocol's rules while the server answers; when the network or the server fails
        /// (a transport error or a 5xx), any stored response, however stale, flagged
        /// ``CacheStatus/Source/staleAfterError``.
        case offlineFirst
    }

    /// The rule.
    var rule: Rule
    /// Whether identical GETs in flight at once (same method, URL, credentials and header fields)
    /// share one exchange; each caller still gets its own outcome. Off by default: see
    /// Docs/Caching.md for where sharing surprises.
    var coalescesRequests: Bool
    /// Whether streamed calls and downloads (and any call that reports progress) go through the
    /// cache too; off by default, so they pass through untouched. A cached stream is delivered
    /// in one piece once it has arrived whole.
    var includesStreams: Bool

    /// A policy from its parts.
    ///
    /// - Parameters:
    ///   - rule: which rule decides between the store and the network.
    ///   - coalescesRequests: whether identical GETs in flight at once (same method, URL,
    ///     credentials and header fields) share one exchange; each caller still gets its own
    ///     outcome. Off by default: see Docs/Caching.md for where sharing surprises.
    ///   - includesStreams: whether streamed calls and downloads (and any call that reports
    ///     progress) go through the cache too; off by default, so they pass through untouched. A
    ///     cached stream is delivered in one piece once it has arrived whole.
    public init(_ rule: Rule, coalescesRequests: Bool = false, includesStreams: Bool = false) {
        self.rule = rule
        self.coalescesRequests = coalescesRequests
        self.includesStreams = includesStreams
    }

    /// RFC 9111 as a private cache; the default.
    public static let protocolRules = CachePolicy(.protocolRules)
    /// Stored responses first, however old.
    public static let cacheFirst = CachePolicy(.cacheFirst)
    /// The network always; answers still stored.
    public static let networkOnly = CachePolicy(.networkOnly)
    /// The protocol's rules, and stored responses when the network or the server fails.
    public static let offlineFirst = CachePolicy(.offlineFirst)
}
