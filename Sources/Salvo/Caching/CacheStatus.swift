import Foundation

/// Where a response came from and how old it is: the cache's answer, on every response a
/// ``CachingSession`` delivers (``ResponseHead/cacheStatus``, ``NetworkResponse/cacheStatus``).
///
/// ```swift
/// let response = try await call.response()
/// if let status = response.cacheStatus, status.source == .staleAfterError {
///     banner = "Offline: showing data from \(Int(status.age)) s ago"
/// }
/// ```
public struct CacheStatus: Sendable, Hashable, CustomStringConvertible {
    /// Where a response came from.
    public enum Source: String, Sendable, Hashable {
        /// The server answered in full; the response may have been stored.
        case network
        /// The store answered without asking the server.
        case cache
        /// The store answered after the server confirmed it with a `304 Not Modified`.
        case revalidated
        /// The store answered because the network or the server failed (a transport error or a
        /// 5xx): the response may be older than its freshness allows.
        case staleAfterError
    }

    /// Where the response came from.
    public let source: Source
    /// How old the response is in seconds (RFC 9111 §4.2.3): 0 for a fresh network answer.
    public let age: TimeInterval
    /// Whether the response was past its freshness lifetime when it was delivered.
    public let isStale: Bool
    /// The key of the exchange another identical call started and this one shared
    /// (a ``CachePolicy`` that coalesces requests): method, URL, user and header fields, no credential;
    /// `nil` when the call had an exchange of its own.
    public let coalescingKey: String?

    /// A status from its parts.
    init(source: Source, age: TimeInterval = 0, isStale: Bool = false, coalescingKey: String? = nil) {
        self.source = source
        self.age = age
        self.isStale = isStale
        self.coalescingKey = coalescingKey
    }

    /// `cache hit, age 12s, stale`, as the logging action prints it.
    public var description: String {
        let name = switch source {
        case .network: "network"
        case .cache: "cache hit"
        case .revalidated: "revalidated (304)"
        case .staleAfterError: "stale after error"
        }
        var parts = [name]
        if source != .network || age > 0 { parts.append("age \(Int(age.rounded(.down)))s") }
        if isStale { parts.append("stale") }
        if let coalescingKey { parts.append("coalesced onto \(coalescingKey)") }
        return parts.joined(separator: ", ")
    }

    /// This status marked as delivered to a caller that joined the exchange filed under `key`.
    func coalesced(under key: String) -> CacheStatus {
        CacheStatus(source: source, age: age, isStale: isStale, coalescingKey: key)
    }
}
