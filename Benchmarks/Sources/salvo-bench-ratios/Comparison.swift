/// One Salvo-versus-baseline comparison: two batches of the same work and the target to meet.
struct Comparison {
    /// What the target bounds.
    enum Target {
        /// Salvo's time over the baseline's at most this (and, optionally, the ratio we aim for).
        case ratio(atMost: Double, aim: Double? = nil)
        /// Salvo's time per operation at most this many nanoseconds more than the baseline's.
        case extraNanoseconds(atMost: Double)
        /// Salvo's time per operation at most this many nanoseconds, whatever the baseline's
        /// (the baseline is shown for context).
        case nanoseconds(atMost: Double)
        /// No target: the ratio is shown for context beside a row that has one.
        case reportedOnly
    }

    /// Which time the target is judged on.
    enum Judged {
        /// CPU time of the measuring thread: in-process work, unaffected by other processes
        /// taking the cores (the machine is shared), so the ratio is stable.
        case threadCPU
        /// CPU time of the whole process: in-process work that hops threads (async code).
        case processCPU
        /// Wall-clock time, with the process's CPU time shown beside it: work across threads
        /// and processes (HTTP), where waiting is part of the cost.
        case wallClock
    }

    /// The row's name, e.g. "1 request building".
    let name: String
    /// What the baseline is, e.g. "URLComponents by hand".
    let baselineName: String
    let target: Target
    let judged: Judged
    /// Operations each batch performs, to report per-operation times.
    let operationsPerBatch: Int
    /// Runs one batch of the Salvo side.
    let salvo: @Sendable () async throws -> Void
    /// Runs one batch of the baseline side.
    let baseline: @Sendable () async throws -> Void
}

/// Seconds one batch took.
struct BatchTime {
    /// Wall-clock seconds.
    let wall: Double
    /// CPU seconds: of the measuring thread for `.threadCPU` comparisons, else of the whole process.
    let cpu: Double
}

/// The timings of one comparison over all its rounds.
struct ComparisonResult {
    let comparison: Comparison
    /// Per round: one batch of each side.
    let rounds: [(salvo: BatchTime, baseline: BatchTime)]

    /// The time the target is judged on.
    private func judged(_ time: BatchTime) -> Double {
        comparison.judged == .wallClock ? time.wall : time.cpu
    }

    /// Per-round ratios, Salvo over baseline, of the judged time.
    var ratios: [Double] { rounds.map { judged($0.salvo) / judged($0.baseline) } }

    /// Per-round ratios of CPU time.
    var cpuRatios: [Double] { rounds.map { $0.salvo.cpu / $0.baseline.cpu } }

    /// Per-round extra nanoseconds per operation of the judged time, Salvo minus baseline.
    var extras: [Double] {
        rounds.map { (judged($0.salvo) - judged($0.baseline)) / Double(comparison.operationsPerBatch) * 1e9 }
    }

    /// Median Salvo nanoseconds per operation (judged time).
    var salvoNanoseconds: Double { perOperation(rounds.map { judged($0.salvo) }) }

    /// Median baseline nanoseconds per operation (judged time).
    var baselineNanoseconds: Double { perOperation(rounds.map { judged($0.baseline) }) }

    /// Whether the median meets the target.
    /// Whether the target is met; `nil` for a row without one.
    var isMet: Bool? {
        switch comparison.target {
        case .ratio(let bound, _): median(ratios) <= bound
        case .extraNanoseconds(let bound): median(extras) <= bound
        case .nanoseconds(let bound): salvoNanoseconds <= bound
        case .reportedOnly: nil
        }
    }

    private func perOperation(_ seconds: [Double]) -> Double {
        median(seconds) / Double(comparison.operationsPerBatch) * 1e9
    }
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
