import Foundation

/// Markdown rows for Docs/Performance.md.
enum Report {
    static func header(rounds: Int) -> String {
        """
        | benchmark | judged on | Salvo / op | baseline / op | baseline | Salvo vs baseline, median of \(rounds) rounds [95% CI of the median] (min–max) | other clock | target | met |
        |---|---|---|---|---|---|---|---|---|
        """
    }

    static func row(_ result: ComparisonResult) -> String {
        let comparison = result.comparison
        let measured: String
        let target: String
        switch comparison.target {
        case .ratio(let bound, let aim):
            measured = ratioRange(result.ratios)
            target = "≤ \(format(bound, "%.2f"))×" + (aim.map { ", aim \(format($0, "%.2f"))×" } ?? "")
        case .extraNanoseconds(let bound):
            let extras = result.extras
            let interval = medianInterval(extras).map { " [\(duration($0.lower)) – \(duration($0.upper))]" } ?? ""
            measured = "+\(duration(median(extras)))\(interval) (\(duration(extras.min() ?? .nan)) – \(duration(extras.max() ?? .nan)))"
            target = "≤ +\(duration(bound))"
        case .nanoseconds(let bound):
            measured = ratioRange(result.ratios)
            target = "≤ \(duration(bound)) per op"
        case .reportedOnly:
            measured = ratioRange(result.ratios)
            target = "none (context)"
        }
        let other: String
        switch comparison.judged {
        case .threadCPU, .processCPU:
            other = "wall " + format(median(result.rounds.map { $0.salvo.wall / $0.baseline.wall }), "%.2f") + "×"
        case .wallClock:
            other = "process CPU " + format(median(result.cpuRatios), "%.2f") + "×"
        }
        let cells = [
            comparison.name, clockName(comparison.judged),
            duration(result.salvoNanoseconds), duration(result.baselineNanoseconds),
            comparison.baselineName, measured, other, target, verdict(result.verdict),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// A streaming row as throughput: each side's median MiB/s and Salvo's share of the baseline's.
    static func throughput(_ result: ComparisonResult, byteCount: Int) -> String {
        let mebibytes = Double(byteCount) / 1_048_576
        let salvo = mebibytes / (result.salvoNanoseconds * 1e-9)
        let baseline = mebibytes / (result.baselineNanoseconds * 1e-9)
        let shares = result.ratios.map { 1 / $0 }
        return "\(result.comparison.name) as throughput: Salvo \(format(salvo, "%.0f")) MiB/s, "
            + "\(result.comparison.baselineName) \(format(baseline, "%.0f")) MiB/s; Salvo at "
            + "\(format(median(shares), "%.2f"))× the baseline's throughput (\(format(shares.min() ?? .nan, "%.2f"))–\(format(shares.max() ?? .nan, "%.2f")), per round)"
    }

    private static func verdict(_ verdict: Verdict?) -> String {
        switch verdict {
        case .met: "yes"
        case .missed: "**no**"
        case .undecided: "undecided (the interval straddles the target)"
        case nil: "—"
        }
    }

    private static func clockName(_ judged: Comparison.Judged) -> String {
        switch judged {
        case .threadCPU: "thread CPU"
        case .processCPU: "process CPU"
        case .wallClock: "wall clock"
        }
    }

    private static func ratioRange(_ ratios: [Double]) -> String {
        let interval = medianInterval(ratios).map { " [\(format($0.lower, "%.3f"))–\(format($0.upper, "%.3f"))]" } ?? ""
        return "\(format(median(ratios), "%.3f"))×\(interval) (\(format(ratios.min() ?? .nan, "%.2f"))–\(format(ratios.max() ?? .nan, "%.2f")))"
    }

    /// The reference side of a three-sided row, timed in the same rounds: its ratio to the
    /// baseline (the floor it shows) and Salvo's ratio to it; `nil` for a two-sided row.
    static func reference(_ result: ComparisonResult) -> String? {
        guard let reference = result.comparison.reference, !result.referenceRounds.isEmpty else { return nil }
        return "\(result.comparison.name), the third side in the same rounds: \(reference.name) is "
            + "\(ratioRange(result.referenceRatios)) \(result.comparison.baselineName); Salvo is "
            + "\(ratioRange(result.salvoOverReference)) \(reference.name)"
    }

    /// `ns` as ns below 10 µs, µs below 10 ms, else ms.
    static func duration(_ ns: Double) -> String {
        if abs(ns) < 10_000 { return "\(format(ns, "%.0f")) ns" }
        if abs(ns) < 10_000_000 { return "\(format(ns / 1_000, "%.1f")) µs" }
        return "\(format(ns / 1_000_000, "%.2f")) ms"
    }

    private static func format(_ value: Double, _ spec: String) -> String {
        String(format: spec, value)
    }
}
