/// Times a comparison's two sides alternately in one process, so both see the same machine state.
///
/// One warm-up batch per side, then `rounds` rounds; each round times one batch of each side with
/// `ContinuousClock`, and the side that goes first alternates (baseline first in even rounds), so
/// drift and cache effects do not favour either side.
struct PairedTimer {
    let rounds: Int

    func run(_ comparison: Comparison) async throws -> ComparisonResult {
        try await comparison.baseline()
        try await comparison.salvo()
        var results: [(salvo: Double, baseline: Double)] = []
        for round in 0..<rounds {
            let salvo: Double
            let baseline: Double
            if round.isMultiple(of: 2) {
                baseline = try await seconds(comparison.baseline)
                salvo = try await seconds(comparison.salvo)
            } else {
                salvo = try await seconds(comparison.salvo)
                baseline = try await seconds(comparison.baseline)
            }
            results.append((salvo, baseline))
        }
        return ComparisonResult(comparison: comparison, rounds: results)
    }

    private func seconds(_ batch: @Sendable () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await batch()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
