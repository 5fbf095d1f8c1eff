import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 13 (issue 30): Salvo's HTTP cache over loopback HTTP, each side next to its baseline.
///
/// - 13 a fresh memory hit vs `URLSession` answering the same request from its `URLCache`
///   (`returnCacheDataElseLoad`); 13b the same hit read from the disk store.
/// - 13c a `304` revalidation through the cache vs a plain Salvo request of the same resource.
/// - 13e a miss (a URL never asked for, stored on the way back) vs the same request without a
///   cache: counted in instructions by `salvo-bench-instructions`.
///
/// The resource is the loopback server's `/cache/<key>/resource` (a small JSON body with an ETag);
/// ``checkEquivalence()`` proves with the server's own counters that a hit never reaches it.
public struct CacheFiring: Sendable {
    private let baseURL: URL
    private let memoryHit: NetCall
    private let diskHit: NetCall
    private let revalidated: NetCall
    private let plain: NetCall
    private let server: ServerConfig
    private let transport: URLSession
    /// Made once, as an app makes its firing function: a miss pays for the request, not the setup.
    private let missFiring: FiringFunction
    private let plainMissFiring: FiringFunction
    private let missPath: EndpointPath
    private let cachedRequest: URLRequest
    private let urlCacheSession: URLSession
    /// The server's counters of every resource the sides fetch.
    private let statsPaths: [String]
    /// The disk store's folder, removed by ``removeFolder()``.
    public let folder: URL

    /// A workload against the loopback server at `baseURL`: a resource of its own per side, a
    /// memory store, a disk store in a new temporary folder, and a `URLSession` with a `URLCache`.
    public init(baseURL: URL) throws {
        self.baseURL = baseURL
        let server = try ServerConfig(baseURL: baseURL.absoluteString)
        let transport = URLSession(configuration: .uncached())
        self.server = server
        self.transport = transport
        missFiring = .caching(in: HTTPCache(store: .memory()), through: transport)
        plainMissFiring = .session(transport)
        let key = "bench-\(UUID().uuidString)"
        missPath = EndpointPath("/cache/\(key)-miss/resource")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bench-cache-\(key)")
        statsPaths = ["memory", "disk", "revalidated", "urlcache"].map { "/cache/\(key)-\($0)/stats" }
        func call(_ leaf: String, cc: String, firing: FiringFunction) -> NetCall {
            NetCall(server: server, endpoint: .get("/cache/\(key)-\(leaf)/resource", query: ["cc": cc]), callbackQueue: .immediate, firingFunction: firing)
        }
        memoryHit = call("memory", cc: "max-age=3600", firing: .caching(in: HTTPCache(store: .memory()), through: transport))
        // No memory tier: every hit reads and decodes the entry's file.
        diskHit = call("disk", cc: "max-age=3600", firing: .caching(in: HTTPCache(store: .disk(in: folder, memoryByteLimit: 0)), through: transport))
        revalidated = call("revalidated", cc: "no-cache", firing: .caching(in: HTTPCache(store: .memory()), through: transport))
        plain = call("revalidated", cc: "no-cache", firing: .session(transport))
        let configuration = URLSessionConfiguration.default
        // A disk capacity too: swift-corelibs-foundation's URLCache stores nothing without one.
        configuration.urlCache = URLCache(memoryCapacity: 16 << 20, diskCapacity: 64 << 20, diskPath: folder.appendingPathComponent("URLCache").path)
        configuration.requestCachePolicy = .returnCacheDataElseLoad
        urlCacheSession = URLSession(configuration: configuration)
        var request = URLRequest(url: baseURL.appendingPathComponent("cache/\(key)-urlcache/resource"))
        request.url = URL(string: request.url?.absoluteString.appending("?cc=max-age%3D3600") ?? "")
        request.cachePolicy = .returnCacheDataElseLoad
        cachedRequest = request
    }

    /// One memory hit.
    public func memoryHitOnce() async throws { try check(try await memoryHit.response(), .cache) }
    /// One disk hit.
    public func diskHitOnce() async throws { try check(try await diskHit.response(), .cache) }
    /// One revalidation answered by a `304`.
    public func revalidationOnce() async throws { try check(try await revalidated.response(), .revalidated) }
    /// One plain request of the resource the revalidation asks for, no cache.
    public func plainOnce() async throws {
        let response = try await plain.response()
        guard response.statusCode == 200, !response.data.isEmpty else { throw WorkloadError("plain request got \(String(describing: response.statusCode))") }
    }

    /// One miss through the cache: each request names a URL of its own (`&miss=<a new UUID>`, so
    /// a warm-up never makes a later request a hit); the answer (`max-age=3600`) is stored on the way back.
    public func missOnce() async throws {
        let response = try await missCall(firing: missFiring).response()
        guard response.cacheStatus?.source == .network, !response.data.isEmpty else {
            throw WorkloadError("expected a miss answered by the network, got \(String(describing: response.cacheStatus))")
        }
    }

    /// The same kind of request as ``missOnce()``, without a cache.
    public func plainMissOnce() async throws {
        let response = try await missCall(firing: plainMissFiring).response()
        guard response.statusCode == 200, !response.data.isEmpty else { throw WorkloadError("plain request got \(String(describing: response.statusCode))") }
    }

    private func missCall(firing: FiringFunction) -> NetCall {
        NetCall(server: server, endpoint: .get(missPath, query: ["cc": "max-age=3600", "miss": UUID().uuidString]), callbackQueue: .immediate, firingFunction: firing)
    }

    /// `URLSession` answering from its `URLCache`.
    public func urlCacheOnce() async throws {
        let (data, response) = try await urlCacheSession.data(for: cachedRequest)
        guard (response as? HTTPURLResponse)?.statusCode == 200, !data.isEmpty else { throw WorkloadError("URLCache side failed: \(response)") }
    }

    private func check(_ response: NetworkResponse, _ source: CacheStatus.Source) throws {
        guard response.cacheStatus?.source == source, !response.data.isEmpty || source == .revalidated else {
            throw WorkloadError("expected a \(source) answer, got \(String(describing: response.cacheStatus))")
        }
    }

    /// Warms every side, then checks with the server's counters that 20 hits of each Salvo cached
    /// side reach it never and that revalidations are answered by a `304`; returns whether the
    /// `URLCache` side answered its 20 from the cache too (swift-corelibs-foundation's does not:
    /// on Linux that baseline is a network request, and the row says so).
    public func checkEquivalence() async throws -> Bool {
        _ = try await memoryHit.response()
        _ = try await diskHit.response()
        _ = try await revalidated.response()
        try await urlCacheOnce()
        let before = try await stats()
        for _ in 0..<20 {
            try await memoryHitOnce()
            try await diskHitOnce()
            try await urlCacheOnce()
        }
        let after = try await stats()
        guard before.prefix(3) == after.prefix(3) else { throw WorkloadError("a Salvo cached side reached the server: \(before) → \(after)") }
        try await revalidationOnce()
        return before.last == after.last
    }

    /// Requests the server has seen for each resource, in one list.
    private func stats() async throws -> [Int] {
        var counts: [Int] = []
        for statsPath in statsPaths {
            let call = NetCall(server: try ServerConfig(baseURL: baseURL.absoluteString), endpoint: .get(EndpointPath(statsPath)), callbackQueue: .immediate)
            let stats = try await call.value(as: [String: Int].self)
            counts.append(stats["requests"] ?? -1)
        }
        return counts
    }

    /// Removes the disk store's folder.
    public func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }
}
