import Foundation
import SalvoWorkloads

extension Comparisons {
    /// Benchmark 13's rows (issue 30).
    static let cacheNames = [
        "13 cache: fresh memory hit",
        "13b cache: fresh disk hit",
        "13c cache: 304 revalidation",
        "13 cache: fresh memory hit, against a plain request",
    ]

    /// Benchmark 13: `requests` per side per round against the loopback server, one at a time.
    static func caching(_ firing: CacheFiring, requests: Int) async throws -> [Comparison] {
        let urlCacheAnswers = try await firing.checkEquivalence()
        // swift-corelibs-foundation's URLCache answers nothing: that side is then a network request.
        let urlCache = "URLSession + URLCache, returnCacheDataElseLoad" + (urlCacheAnswers ? "" : " (reaches the server: URLCache answers nothing here)")
        return [
            Comparison(
                name: cacheNames[0], baselineName: urlCache,
                target: .ratio(atMost: 0.5), judged: .wallClock, operationsPerBatch: requests,
                salvo: { for _ in 0..<requests { try await firing.memoryHitOnce() } },
                baseline: { for _ in 0..<requests { try await firing.urlCacheOnce() } }
            ),
            Comparison(
                name: cacheNames[1], baselineName: urlCache,
                target: .ratio(atMost: 1.0), judged: .wallClock, operationsPerBatch: requests,
                salvo: { for _ in 0..<requests { try await firing.diskHitOnce() } },
                baseline: { for _ in 0..<requests { try await firing.urlCacheOnce() } }
            ),
            Comparison(
                name: cacheNames[2], baselineName: "the same request, no cache (200)",
                target: .ratio(atMost: 1.05), judged: .wallClock, operationsPerBatch: requests,
                salvo: { for _ in 0..<requests { try await firing.revalidationOnce() } },
                baseline: { for _ in 0..<requests { try await firing.plainOnce() } }
            ),
            // Context where URLCache answers nothing: what a hit saves over asking the loopback server.
            Comparison(
                name: cacheNames[3], baselineName: "the same kind of request, no cache (200 over loopback)",
                target: .reportedOnly, judged: .wallClock, operationsPerBatch: requests,
                salvo: { for _ in 0..<requests { try await firing.memoryHitOnce() } },
                baseline: { for _ in 0..<requests { try await firing.plainOnce() } }
            ),
        ]
    }
}
