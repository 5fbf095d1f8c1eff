import Foundation
import SalvoWorkloads

/// Benchmark 5cs (issue 28): voluntary context switches per request of the process (every thread,
/// `getrusage(RUSAGE_SELF)`), one request at a time, for raw `data(for:)`, `value(as:)`, `fire()`
/// on `.main`, and (context) the raw completion-handler task Salvo's transport is. The target:
/// each Salvo side at most 2 more per request than raw.
///
/// Each round runs one batch of every side, the order rotating per round, after one warm-up batch
/// each; the table shows each side's median over the rounds (min–max).
enum ContextSwitchCheck {
    static let name = "5cs HTTP voluntary context switches per request, concurrency 1"

    /// The most a Salvo side may add per request over raw.
    static let allowance = 2.0

    static func report(_ firing: ValueFiring, requests: Int, rounds: Int) async throws -> String {
        let sides: [(name: String, run: @Sendable () async throws -> Void)] = [
            ("raw URLSession.data(for:) + JSONDecoder", { try await firing.rawOnce() }),
            ("Salvo value(as:)", { try await firing.valueOnce() }),
            ("Salvo fire() on .main, decoding in dataHandler", { try await firing.fireOnMainOnce() }),
            ("raw dataTask(with:completionHandler:) + JSONDecoder (Salvo's transport; context)", { try await firing.rawCompletionHandlerOnce() }),
        ]
        var voluntary = Array(repeating: [Double](), count: sides.count)
        var involuntary = Array(repeating: [Double](), count: sides.count)
        for side in sides { for _ in 0..<requests { try await side.run() } }
        for round in 0..<rounds {
            for offset in 0..<sides.count {
                let index = (round + offset) % sides.count
                let before = ContextSwitches.now()
                for _ in 0..<requests { try await sides[index].run() }
                let switches = ContextSwitches.now() - before
                voluntary[index].append(Double(switches.voluntary) / Double(requests))
                involuntary[index].append(Double(switches.involuntary) / Double(requests))
            }
        }
        let raw = median(voluntary[0])
        var lines = [
            "| side | voluntary switches per request, median of \(rounds) rounds (min–max) | over raw | involuntary per request | target | met |",
            "|---|---|---|---|---|---|",
        ]
        for (index, side) in sides.enumerated() {
            let perRequest = median(voluntary[index])
            let isRaw = index == 0
            let isContext = index == 3
            let cells = [
                side.name,
                String(format: "%.1f (%.1f–%.1f)", perRequest, voluntary[index].min() ?? .nan, voluntary[index].max() ?? .nan),
                isRaw ? "—" : String(format: "%+.1f", perRequest - raw),
                String(format: "%.2f", median(involuntary[index])),
                isRaw || isContext ? "—" : String(format: "≤ raw + %.0f", allowance),
                isRaw || isContext ? "—" : (perRequest - raw <= allowance ? "yes" : "**no**"),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("\nThreads in the process after the check: \(ContextSwitches.threadCount().map(String.init) ?? "unknown")")
        return lines.joined(separator: "\n")
    }
}
