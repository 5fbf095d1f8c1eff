import Foundation
import SalvoWorkloads

extension Comparisons {
    /// The concurrencies of benchmark 11.
    static let serverSideConcurrencies = [1, 16]

    /// Every row name of benchmarks 11 and 12, for `--only`.
    static func serverSideNames(byteCount: Int) -> [String] {
        serverSideConcurrencies.flatMap { [serverSideName(concurrency: $0), serverSideName(concurrency: $0, againstURLSession: true)] }
            + [serverSideStreamingName(byteCount: byteCount)]
    }

    private static func serverSideName(concurrency: Int, againstURLSession: Bool = false) -> String {
        againstURLSession
            ? "11b AsyncHTTPClient transport, concurrency \(concurrency), vs URLSession"
            : "11 AsyncHTTPClient transport, concurrency \(concurrency)"
    }

    static func serverSideStreamingName(byteCount: Int) -> String {
        "12 AsyncHTTPClient transport, streaming \(byteCount >> 20) MiB"
    }

    /// Benchmarks 11 (small JSON GETs from nginx: Salvo over AsyncHTTPClient ≤ 1.10× raw
    /// AsyncHTTPClient, ≤ 0.5× raw URLSession) and 12 (a large body streamed: ≥ 0.9× raw
    /// AsyncHTTPClient's throughput), all judged on wall-clock time.
    static func serverSide(_ firing: ServerSideFiring, requests: Int) -> [Comparison] {
        serverSideConcurrencies.flatMap { concurrency in [
            Comparison(
                name: serverSideName(concurrency: concurrency), baselineName: "raw AsyncHTTPClient execute + collect",
                target: .ratio(atMost: 1.10), judged: .wallClock, operationsPerBatch: requests,
                salvo: { try await runConcurrently(count: requests, concurrency: concurrency) { try await firing.salvoOnce() } },
                baseline: { try await runConcurrently(count: requests, concurrency: concurrency) { try await firing.rawAsyncHTTPClientOnce() } }
            ),
            Comparison(
                name: serverSideName(concurrency: concurrency, againstURLSession: true), baselineName: "raw URLSession.data(for:)",
                target: .ratio(atMost: 0.5), judged: .wallClock, operationsPerBatch: requests,
                salvo: { try await runConcurrently(count: requests, concurrency: concurrency) { try await firing.salvoOnce() } },
                baseline: { try await runConcurrently(count: requests, concurrency: concurrency) { try await firing.rawURLSessionOnce() } }
            ),
        ] } + [
            Comparison(
                name: serverSideStreamingName(byteCount: firing.byteCount), baselineName: "raw AsyncHTTPClient body sequence",
                target: .ratio(atMost: 1.11), judged: .wallClock, operationsPerBatch: 1,
                salvo: { sink(try await firing.salvoStream()) },
                baseline: { sink(try await firing.rawStream()) }
            ),
        ]
    }
}
