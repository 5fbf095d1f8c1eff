/// One Salvo-versus-baseline comparison: two batches of the same work and the target to meet.
struct Comparison {
    /// What the target bounds.
    enum Target {
        /// Salvo's time over the baseline's at most this (and, optionally, the ratio we aim for).
        case ratio(atMost: Double, aim: Double? = nil)
        /// Salvo's time per operation at most this many nanoseconds more than the baseline's.
        case extraNanoseconds(atMost: Double)
    }

    /// The row's name, e.g. "1 request building".
    let name: String
    /// What the baseline is, e.g. "URLComponents by hand".
    let baselineName: String
    let target: Target
    /// Operations each batch performs, to report per-operation times.
    let operationsPerBatch: Int
    /// Runs one batch of the Salvo side.
    let salvo: @Sendable () async throws -> Void
    /// Runs one batch of the baseline side.
    let baseline: @Sendable () async throws -> Void
}

/// The timings of one comparison over all its rounds.
struct ComparisonResult {
    let comparison: Comparison
    /// Per round: seconds for the Salvo batch and for the baseline batch.
    let rounds: [(salvo: Double, baseline: Double)]

    /// Per-round ratios, Salvo over baseline.
    var ratios: [Double] { rounds.map { $0.salvo / $0.baseline } }

    /// Per-round extra nanoseconds per operation, Salvo minus baseline.
    var extras: [Double] {
        rounds.map { ($0.salvo - $0.baseline) / Double(comparison.operationsPerBatch) * 1e9 }
    }

    /// Median Salvo nanoseconds per operation.
    var salvoNanoseconds: Double { median(rounds.map { $0.salvo }) / Double(comparison.operationsPerBatch) * 1e9 }

    /// Median baseline nanoseconds per operation.
    var baselineNanoseconds: Double { median(rounds.map { $0.baseline }) / Double(comparison.operationsPerBatch) * 1e9 }

    /// Whether the median meets the target.
    var isMet: Bool {
        switch comparison.target {
        case .ratio(let bound, _): median(ratios) <= bound
        case .extraNanoseconds(let bound): median(extras) <= bound
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
