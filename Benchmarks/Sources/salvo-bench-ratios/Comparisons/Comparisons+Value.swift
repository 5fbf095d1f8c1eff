import Foundation
import SalvoWorkloads

extension Comparisons {
    /// Benchmark 5v's rows (issue 28): `value(as:)` at one and 16 connections, and `fire()`
    /// delivering on `.main` at one.
    static let valueNames = [
        "5v HTTP value(as:), concurrency 1",
        "5v HTTP value(as:), concurrency 16",
        "5f HTTP fire() on .main, concurrency 1",
    ]

    /// Benchmark 5v: `requests` per side per round against the loopback server; the baseline is
    /// `data(for:)` with the same decode, and the 1- and 16-connection rows time a raw
    /// completion-handler task (Salvo's transport, without Salvo) in the same rounds.
    static func value(_ firing: ValueFiring, requests: Int) async throws -> [Comparison] {
        try await firing.checkEquivalence()
        let baseline = "URLSession.data(for:) + JSONDecoder"
        // The transport Salvo's production firing uses, with the same decode: the floor corelibs sets.
        let floor = "a raw completion-handler task + JSONDecoder"
        return [
            Comparison(
                name: valueNames[0], baselineName: baseline,
                target: .ratio(atMost: 1.10), judged: .wallClock, operationsPerBatch: requests,
                salvo: { for _ in 0..<requests { try await firing.valueOnce() } },
                baseline: { for _ in 0..<requests { try await firing.rawOnce() } },
                reference: Comparison.Reference(name: floor) {
                    for _ in 0..<requests { try await firing.rawCompletionHandlerOnce() }
                }
            ),
            Comparison(
                name: valueNames[1], baselineName: baseline,
                target: .ratio(atMost: 1.05), judged: .wallClock, operationsPerBatch: requests,
                salvo: { try await runConcurrently(count: requests, concurrency: 16) { try await firing.valueOnce() } },
                baseline: { try await runConcurrently(count: requests, concurrency: 16) { try await firing.rawOnce() } },
                reference: Comparison.Reference(name: floor) {
                    try await runConcurrently(count: requests, concurrency: 16) { try await firing.rawCompletionHandlerOnce() }
                }
            ),
            Comparison(
                name: valueNames[2], baselineName: baseline,
                target: .reportedOnly, judged: .wallClock, operationsPerBatch: requests,
                salvo: { for _ in 0..<requests { try await firing.fireOnMainOnce() } },
                baseline: { for _ in 0..<requests { try await firing.rawOnce() } }
            ),
        ]
    }
}
