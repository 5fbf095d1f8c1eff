/// A small, fast, seeded random number generator (SplitMix64), so that simulated network
/// conditions repeat exactly from run to run.
///
/// Not for cryptography. The same seed always gives the same sequence on every platform.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let roll = Double.random(in: 0..<1, using: &generator)
/// ```
struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's current state; the next value is derived from it.
    private(set) var state: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniformly distributed value in `0..<1` built from the next 53 bits.
    mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
