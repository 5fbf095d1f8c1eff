import Foundation
import Salvo

/// Benchmark 13d (issue 30): the memory store stays within its byte limit. Fires `count`
/// distinct cacheable responses of `bodyBytes` each (many times the limit) through a memory store
/// of `byteLimit` bytes over a mock origin, and measures the heap the store keeps afterwards.
public enum CacheMemory {
    /// The row's name.
    public static let name = "13d cache: memory store bounded by its byte limit"

    /// `limit 4 MiB: 40 MiB stored through it, heap +3.9 MiB after (0.98x the limit)`, per limit.
    public static func report(byteLimits: [Int] = [1 << 20, 4 << 20], count: Int = 1_000, bodyBytes: Int = 40 << 10) async throws -> String {
        var lines: [String] = []
        for limit in byteLimits {
            // A body of its own per response: one shared buffer would be stored once, whatever the limit.
            let origin = MockSession { _ in
                MockResponse.status(200, headers: ["Cache-Control": "max-age=3600"], body: Data((0..<bodyBytes).map { UInt8(truncatingIfNeeded: $0) }))
            }
            let server = ServerConfig(host: "bench.example.com")
            // The same traffic without a cache first: what the firings themselves leave on the heap
            // (task and allocator state), subtracted from what the run with the store keeps.
            let traffic = try await heapKept(count: count, bodyBytes: bodyBytes, server: server, firing: .session(origin, clock: .immediate))
            let cache = HTTPCache(store: .memory(byteLimit: limit))
            let withStore = try await heapKept(count: count, bodyBytes: bodyBytes, server: server, firing: .caching(in: cache, through: origin, clock: .immediate))
            let kept = withStore - traffic
            lines.append(String(format: "limit %d MiB: %d MiB stored through it, heap %+.2f MiB after, %+.2f MiB without a cache: the store keeps %.2f MiB (%.2fx the limit)",
                                limit >> 20, (count * bodyBytes) >> 20, Double(withStore) / 1_048_576, Double(traffic) / 1_048_576,
                                Double(kept) / 1_048_576, Double(kept) / Double(limit)))
            withExtendedLifetime(cache) {}
        }
        return lines.joined(separator: "\n")
    }

    /// The heap in use after `count` firings through `firing`, minus before.
    private static func heapKept(count: Int, bodyBytes: Int, server: ServerConfig, firing: FiringFunction) async throws -> Int {
        let before = heapBytesInUse() ?? 0
        for id in 0..<count {
            let call = NetCall(server: server, endpoint: .get("/item/\(id)"), callbackQueue: .immediate, firingFunction: firing)
            let response = try await call.response()
            guard response.data.count == bodyBytes else { throw WorkloadError("got \(response.data.count) bytes") }
        }
        return (heapBytesInUse() ?? 0) - before
    }
}
