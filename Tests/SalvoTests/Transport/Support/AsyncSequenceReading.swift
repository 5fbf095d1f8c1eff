@_spi(Transport) import Salvo

/// Reads `sequence` to its end, failing with `TimedOut` after `seconds` (120 by default, a hung
/// test's limit, not a speed check): every element, and the
/// error it ended with (`nil` for a normal end).
func readAll<Sequence: AsyncSequence & Sendable>(
    _ sequence: Sequence,
    within seconds: Double = 120
) async throws -> (elements: [Sequence.Element], error: NetworkError?) where Sequence.Failure == NetworkError, Sequence.Element: Sendable {
    try await withTimeout(seconds) { await read(sequence) }
}

/// Reads `sequence` to its end without a time limit, for a task the test cancels (a time limit's
/// own task would throw `CancellationError` first): every element, and the error it ended with.
func read<Sequence: AsyncSequence>(
    _ sequence: Sequence
) async -> (elements: [Sequence.Element], error: NetworkError?) where Sequence.Failure == NetworkError {
    var elements: [Sequence.Element] = []
    do throws(NetworkError) {
        for try await element in sequence { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}
