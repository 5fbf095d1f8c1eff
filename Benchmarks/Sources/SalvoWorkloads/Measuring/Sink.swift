/// Keeps `value` alive and opaque to the optimizer, so measured work cannot be removed.
///
/// The same idea as package-benchmark's `blackHole`, kept here so the ratio tool does not link the
/// benchmark framework (and its malloc interposer), which would slow every allocation on both sides.
@inline(never)
@_optimize(none)
public func sink(_ value: some Any) {}
