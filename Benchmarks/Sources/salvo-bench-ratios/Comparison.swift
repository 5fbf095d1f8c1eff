import Foundation

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
    /// A third side timed in the same rounds, for context: what the baseline's platform costs by
    /// another route (the floor a transport sets); `nil` for a two-sided row.
    var reference: Reference?

    /// A named batch timed beside the two sides.
    struct Reference {
        let name: String
        let run: @Sendable () async throws -> Void
    }
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
    /// Per round: one batch of the reference side, when the comparison has one.
    let referenceRounds: [BatchTime]

    /// The time the target is judged on.
    private func judged(_ time: BatchTime) -> Double {
        comparison.judged == .wallClock ? time.wall : time.cpu
    }

    /// Per-round ratios, Salvo over baseline, of the judged time.
    var ratios: [Double] { rounds.map { judged($0.salvo) / judged($0.baseline) } }

    /// Per-round ratios, reference over baseline, of the judged time; empty without a reference.
    var referenceRatios: [Double] { zip(referenceRounds, rounds).map { judged($0) / judged($1.baseline) } }

    /// Per-round ratios, Salvo over reference, of the judged time; empty without a reference.
    var salvoOverReference: [Double] { zip(rounds, referenceRounds).map { judged($0.salvo) / judged($1) } }

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

    /// Whether the target is met: by the whole 95% interval of the median (`.met`), by none of it
    /// (`.missed`), or the interval straddles the bound (`.undecided`: run more rounds); `nil`
    /// for a row without a target. Below 6 rounds there is no interval and the median decides.
    var verdict: Verdict? {
        switch comparison.target {
        case .ratio(let bound, _): Verdict(ratios, atMost: bound)
        case .extraNanoseconds(let bound): Verdict(extras, atMost: bound)
        case .nanoseconds(let bound): salvoNanoseconds <= bound ? .met : .missed
        case .reportedOnly: nil
        }
    }

    private func perOperation(_ seconds: [Double]) -> Double {
        median(seconds) / Double(comparison.operationsPerBatch) * 1e9
    }
}

/// Whether a row meets its target, judged on the confidence interval of its median.
enum Verdict {
    case met, missed, undecided

    /// The verdict on `values` against an upper `bound`.
    init(_ values: [Double], atMost bound: Double) {
        guard let interval = medianInterval(values) else {
            self = median(values) <= bound ? .met : .missed
            return
        }
        if interval.upper <= bound {
            self = .met
        } else if interval.lower > bound {
            self = .missed
        } else {
            self = .undecided
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

/// A distribution-free 95% confidence interval of the median of `values`: the order statistics
/// `k` and `n + 1 - k`, with `k` the largest rank such that a Binomial(n, ½) count below `k` has
/// probability at most 2.5%. Per-round ratios are not normal (a stall makes one round 2× or 4×),
/// so no mean and standard deviation; `nil` below 6 values, where no such interval reaches 95%.
func medianInterval(_ values: [Double]) -> (lower: Double, upper: Double)? {
    let sorted = values.sorted()
    let n = sorted.count
    guard n >= 6 else { return nil }
    // P(X ≤ j) for X ~ Binomial(n, ½), each term from the last in logarithms (2⁻ⁿ underflows for large n).
    var below = 0.0
    var k = 0
    var logTerm = -Double(n) * log(2.0)  // P(X = 0)
    for j in 0..<n {
        if j > 0 { logTerm += log(Double(n - j + 1) / Double(j)) }
        below += exp(logTerm)
        guard below <= 0.025 else { break }
        k = j + 1
    }
    guard k >= 1 else { return nil }
    return (sorted[k - 1], sorted[n - k])
}
