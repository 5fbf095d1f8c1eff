import Foundation

/// The answers of SalvoTesting's `MockResponse.sequence(_:then:)`: each entry once, in order, then the fallback.
///
/// The position is shared by every copy of the response it belongs to (and so by every copy of a
/// route table holding it): build a table with sequences per test, or the second test starts
/// where the first stopped.
final class MockSequence: Sendable {
    /// Each answer with how many calls in a row it gives; counts, not copies, so a huge count costs nothing.
    private let runs: [(response: MockResponse, count: Int)]
    private let fallback: MockResponse?
    private let position = Locked(0)

    init(_ runs: [(response: MockResponse, count: Int)], then fallback: MockResponse?) {
        self.runs = runs.filter { $0.count > 0 }
        self.fallback = fallback
    }

    /// The next answer; past the end, the fallback or a problem saying the sequence ran out.
    func next() -> MockResponse {
        let call = position.withLock { position in
            defer { if position < Int.max { position += 1 } }
            return position
        }
        var remaining = call
        for run in runs {
            if remaining < run.count { return run.response }
            remaining -= run.count
        }
        if let fallback { return fallback }
        return MockResponse(.problem(
            reason: "the mock response sequence was used up: it gives \(call - remaining) answers and this was call \(call + 1); add a fallback with .sequence(_:then:)",
            part: .route
        ))
    }
}

extension MockResponse {
    /// Answers with each run's response for its count of calls, in order, then with `fallback`
    /// every time after (or, with none, a problem saying the sequence was used up): SalvoTesting's
    /// `.sequence(_:then:)` and `.failing(_:with:then:)` are made of this.
    package static func sequence(runs: [(response: MockResponse, count: Int)], then fallback: MockResponse?) -> MockResponse {
        MockResponse(.sequence(MockSequence(runs, then: fallback)))
    }

    /// The answer to give now: a sequence's next entry (its own latency added to this one's),
    /// or this answer itself.
    consuming func next() -> MockResponse {
        guard case .sequence(let sequence) = answer else { return self }
        var next = sequence.next().next()
        next.latency = NetworkConditions.clampedDelay(next.latency + latency)
        return next
    }
}
