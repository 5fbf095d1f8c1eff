import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111, RFC 5861): the store, whose entries it holds, and the
/// exchanges identical requests share. ``CachingSession`` consults it; share one between the
/// firing functions of every call that should see the same entries.
///
/// ```swift
/// let cache = HTTPCache(store: .disk(in: cachesFolder.appendingPathComponent("api")))
/// server.firingFunction = .caching(in: cache)                         // protocol rules
/// feedCall.firingFunction = .caching(in: cache, policy: .offlineFirst) // this call: offline-first
/// cache.partitionKey = user.id                                        // at sign-in: whose data it is
/// // At sign-out:
/// cache.removeEntries(inPartition: user.id)
/// ```
///
/// With a ``partitionKey`` every response is filed under it, so a renewed token still sees the
/// user's entries. Without one, responses to requests with credentials are filed per credential:
/// a request whose `Authorization`, `Cookie` or auth action header differs never sees another's entries.
public final class HTTPCache: Sendable {
    /// The partition key, and the partitions purged since: answers still on the way for them
    /// are not stored.
    private struct Partitioning {
        var key: String?
        /// ``CacheKey/partition(forKey:)`` of `key`, made once.
        var partition: String?
        var purged: Set<String> = []
    }

    /// Where responses are kept.
    let store: CacheStore
    /// Which request header values are kept only as digests when a response varies on them, and
    /// which response header fields are never stored (`Set-Cookie` by default).
    let redaction: Redaction
    /// What ages are measured with.
    let clock: NetworkClock
    /// The wall time when ``clock`` read `startUptime`: ages count from there.
    private let startDate: Date
    private let startUptime: TimeInterval
    let coalescer = RequestCoalescer()
    private let partitioning = Locked(Partitioning())

    /// A cache keeping responses in `store`.
    ///
    /// - Parameters:
    ///   - store: where responses are kept; 20 MB in memory by default.
    ///   - redaction: the request header fields kept only as digests and the response fields
    ///     never stored; ``Redaction/default`` (as for fixtures) by default.
    ///   - clock: what ages and freshness are measured with; ``NetworkClock/live`` by default,
    ///     a `TestClock`'s in tests.
    public init(store: CacheStore = .memory(), redaction: Redaction = .default, clock: NetworkClock = .live) {
        self.store = store
        self.redaction = redaction
        self.clock = clock
        startDate = Date()
        startUptime = clock.now()
    }

    /// Whose data the cache holds from now on, such as the signed-in user's id; `nil` (the
    /// default) files responses to requests with credentials per credential digest.
    ///
    /// Set it at sign-in, and at launch as soon as the user is known, before the first call: every
    /// response is then filed under the key, whatever credentials its request carried, so a
    /// renewed token (or a cookie the session added) still sees the user's entries, offline too.
    /// Only a digest of the key is kept, never the key. One user at a time: an app signed in to
    /// several accounts at once gives each its own cache.
    ///
    /// ```swift
    /// cache.partitionKey = user.id
    /// ```
    public var partitionKey: String? {
        get { partitioning.withLock { $0.key } }
        set {
            let partition = newValue.map(CacheKey.partition(forKey:))
            partitioning.withLock { state in
                state.key = newValue
                state.partition = partition
                if let partition { state.purged.remove(partition) }
            }
        }
    }

    /// Removes every response stored for the user `partitionKey` names, in memory and on disk:
    /// call it at sign-out.
    ///
    /// It also removes every response filed under a credential digest: those were stored while no
    /// key was set (before the key was known, or under a token since renewed), and once a key is
    /// set nothing reaches them. When `partitionKey` is the cache's ``partitionKey``, that becomes
    /// `nil`; answers still on the way for the key are not stored until it is set again.
    ///
    /// - Parameter partitionKey: the key the user's responses were filed under.
    public func removeEntries(inPartition partitionKey: String) {
        let partition = CacheKey.partition(forKey: partitionKey)
        partitioning.withLock { state in
            if state.key == partitionKey {
                state.key = nil
                state.partition = nil
            }
            state.purged.insert(partition)
        }
        store.remove(.key(partition))
    }

    /// Removes every response stored for requests that carried exactly these credential fields:
    /// call it at sign-out with the fields the user's requests sent (`Authorization`, `Cookie`,
    /// an auth action's header). Responses stored under earlier credentials (before a token
    /// renewal) stay: set a ``partitionKey`` and purge with ``removeEntries(inPartition:)`` to
    /// remove every response of the user.
    public func removeEntries(signedInWith credentials: HTTPHeaders) {
        let names = Set(credentials.fields.map(\.name))
        store.remove(.partition(CacheKey.partition(of: credentials.dictionary, credentialHeaders: names)))
    }

    /// Removes every response stored for `url`, for every user and method.
    public func removeEntries(for url: URL) {
        store.remove(.url(url.absoluteString))
    }

    /// Removes every stored response.
    public func removeAll() {
        store.remove(.all)
    }

    /// The current wall time as the cache's clock tells it.
    func now() -> Date {
        startDate.addingTimeInterval(clock.now() - startUptime)
    }

    /// The key `request` is filed under: the partition key's partition when one is set,
    /// otherwise the partition of its credential fields (`headers`, with `credentialHeaders`).
    func key(for request: URLRequest, headers: [String: String], credentialHeaders: Set<String>) -> CacheKey {
        if let partition = partitioning.withLock({ $0.partition }) { return CacheKey(request, partition: partition) }
        return CacheKey(request, headers: headers, credentialHeaders: credentialHeaders)
    }

    // MARK: - Variants

    /// The stored response for `request` under `key`: the most recent variant whose `Vary`
    /// fields match the request's.
    func storedResponse(for key: CacheKey, matching request: URLRequest) -> CachedResponse? {
        store.load(key)
            .filter { $0.variant.allSatisfy { name, value in storedValue(of: name, in: request) == value } }
            .max { $0.responseTime < $1.responseTime }
    }

    /// Stores `response` as the variant of `key` for its `Vary` values, replacing the one stored
    /// for the same values.
    func save(_ response: CachedResponse, for key: CacheKey) {
        // An answer that left before its user's purge must not bring the user's data back.
        guard !isPurged(key) else { return }
        var variants = store.load(key).filter { $0.variant != response.variant }
        variants.append(response)
        // A resource varying on many values keeps its most recent few.
        store.save(key, Array(variants.suffix(Self.variantLimit)))
        // A purge that ran while this was saved marked the partition before removing it: undo the save.
        if isPurged(key) { store.save(key, []) }
    }

    private func isPurged(_ key: CacheKey) -> Bool {
        partitioning.withLock { $0.purged.contains(key.partition) }
    }

    private static let variantLimit = 8

    /// The request's value of field `name` as a variant keeps it: whitespace trimmed, a hidden
    /// field's as a digest; `nil` when absent.
    func storedValue(of name: String, in request: URLRequest) -> String? {
        guard let value = request.value(forHTTPHeaderField: name) else { return nil }
        let normalized = value.split(separator: ",").map { CacheControl.trimmed($0) }.joined(separator: ", ")
        return redaction.hidesHeader(name) ? "sha256:" + SHA256.hex(normalized) : normalized
    }

    /// What is stored of `head` and `body` for `request`: the variant's request values, and the
    /// response fields minus framing and hidden ones, read from the head only when needed.
    func entry(for request: URLRequest, head: ResponseHead, body: Data, vary: [String], requestTime: Date, responseTime: Date) -> CachedResponse {
        var variant: [String: String?] = [:]
        for name in vary { variant[name] = storedValue(of: name, in: request) }
        return CachedResponse(
            statusCode: head.statusCode, head: HeadFields(head, hiding: redaction.headers),
            url: head.url, requestTime: requestTime, responseTime: responseTime, variant: variant, body: body
        )
    }
}
