import Foundation

/// Times a comparison's two sides alternately in one process, so both see the same machine state.
///
/// One warm-up batch per side, then `rounds` rounds; each round times one batch of each side, and
/// the side that goes first alternates (baseline first in even rounds), so drift and cache
/// effects do not favour either side.
struct PairedTimer {
    let rounds: Int

    func run(_ comparison: Comparison) async throws -> ComparisonResult {
        try await comparison.baseline()
        try await comparison.salvo()
        let scope = comparison.judged == .threadCPU ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID
        var results: [(salvo: BatchTime, baseline: BatchTime)] = []
        for round in 0..<rounds {
            let salvo: BatchTime
            let baseline: BatchTime
            if round.isMultiple(of: 2) {
                baseline = try await time(comparison.baseline, cpu: scope)
                salvo = try await time(comparison.salvo, cpu: scope)
            } else {
                salvo = try await time(comparison.salvo, cpu: scope)
                baseline = try await time(comparison.baseline, cpu: scope)
            }
            results.append((salvo, baseline))
        }
        return ComparisonResult(comparison: comparison, rounds: results)
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
