import Foundation

/// Markdown rows for Docs/Performance.md.
enum Report {
    static func header(rounds: Int) -> String {
        """
        | benchmark | Salvo / op | baseline / op | baseline | median of \(rounds) rounds (min–max) | target | met |
        |---|---|---|---|---|---|---|
        """
    }

    static func row(_ result: ComparisonResult) -> String {
        let comparison = result.comparison
        let measured: String
        let target: String
        switch comparison.target {
        case .ratio(let bound, let aim):
            let ratios = result.ratios
            measured = "\(format(median(ratios), "%.2f"))× (\(format(ratios.min() ?? .nan, "%.2f"))–\(format(ratios.max() ?? .nan, "%.2f")))"
            target = "≤ \(format(bound, "%.2f"))×" + (aim.map { ", aim \(format($0, "%.2f"))×" } ?? "")
        case .extraNanoseconds(let bound):
            let extras = result.extras
            measured = "+\(duration(median(extras))) (\(duration(extras.min() ?? .nan))–\(duration(extras.max() ?? .nan)))"
            target = "≤ +\(duration(bound))"
        }
        let cells = [
            comparison.name, duration(result.salvoNanoseconds), duration(result.baselineNanoseconds),
            comparison.baselineName, measured, target, result.isMet ? "yes" : "**no**",
        ]
        return "| " + cells.joined(separator: " | ") + " |"
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
