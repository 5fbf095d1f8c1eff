import Foundation

/// Times a comparison's two sides alternately in one process, so both see the same machine state.
///
/// One warm-up batch per side, then `rounds` rounds; each round times one batch of each side, and
/// the side that goes first alternates (baseline first in even rounds; with a reference side the
/// three rotate), so drift and cache effects do not favour any side.
struct PairedTimer {
    let rounds: Int

    func run(_ comparison: Comparison) async throws -> ComparisonResult {
        try await comparison.baseline()
        try await comparison.salvo()
        try await comparison.reference?.run()
        let scope = comparison.judged == .threadCPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID
        var results: [(salvo: BatchTime, baseline: BatchTime)] = []
        var referenceResults: [BatchTime] = []
        for round in 0..<rounds {
            var salvo: BatchTime?
            var baseline: BatchTime?
            // Two sides alternate; three rotate, so each goes first, second and last equally often.
            let sides = comparison.reference == nil ? 2 : 3
            for position in 0..<sides {
                switch (round + position) % sides {
                case 0: baseline = try await time(comparison.baseline, cpu: scope)
                case 1: salvo = try await time(comparison.salvo, cpu: scope)
                default:
                    if let reference = comparison.reference { referenceResults.append(try await time(reference.run, cpu: scope)) }
                }
            }
            if let salvo, let baseline { results.append((salvo, baseline)) }
        }
        return ComparisonResult(comparison: comparison, rounds: results, referenceRounds: referenceResults)
    }

    /// Times one batch. A thread-CPU batch must not suspend (it would resume on another thread);
    /// the in-process batches are synchronous loops, so it does not.
    private func time(_ batch: @Sendable () async throws -> Void, cpu scope: clockid_t) async throws -> BatchTime {
        let clock = ContinuousClock()
        let cpuStart = cpuSeconds(scope)
        let start = clock.now
        try await batch()
        let elapsed = clock.now - start
        let cpu = cpuSeconds(scope) - cpuStart
        return BatchTime(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, cpu: cpu)
    }

    private func cpuSeconds(_ scope: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(scope, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}
