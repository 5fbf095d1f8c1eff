#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Testing

/// A subscriber that asks for exactly the demand a test gives it and records what arrives.
///
/// ```swift
/// let subscriber = RecordingSubscriber<Book, NetworkError>(demand: .none)
/// publisher.subscribe(subscriber)
/// subscriber.request(.max(1))
/// let values = try await subscriber.waitForCompletion()
/// ```
final class RecordingSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: every stored `var` is only touched while `lock` is held.
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var recorded: [Input] = []
    private var recordedCompletion: Subscribers.Completion<Failure>?
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand

    let combineIdentifier = CombineIdentifier()

    /// A subscriber asking for `demand` once subscribed and for `demandPerValue` more with each value.
    init(demand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        initialDemand = demand
        self.demandPerValue = demandPerValue
    }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let isLate = lock.withLock {
            recorded.append(input)
            return recordedCompletion != nil
        }
        if isLate { Issue.record("a value arrived after the completion") }
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let isSecond = lock.withLock {
            defer { recordedCompletion = completion }
            return recordedCompletion != nil
        }
        if isSecond { Issue.record("the publisher completed twice") }
    }

    /// Asks the subscription for `demand` more values.
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    /// Cancels the subscription.
    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    var values: [Input] { lock.withLock { recorded } }
    var completion: Subscribers.Completion<Failure>? { lock.withLock { recordedCompletion } }
    var hasSubscription: Bool { lock.withLock { subscription != nil } }

    /// The failure, if the publisher failed.
    var failure: Failure? {
        if case .failure(let error) = completion { return error }
        return nil
    }

    /// Whether the publisher finished without failing.
    var isFinished: Bool {
        if case .finished = completion { return true }
        return false
    }

    /// Waits until the publisher completes; throws when `seconds` pass first.
    @discardableResult
    func waitForCompletion(_ seconds: Double = 10) async throws -> [Input] {
        try await waitUntil(seconds) { self.completion != nil }
        return values
    }

    /// Waits until `count` values arrived; throws when `seconds` pass first.
    @discardableResult
    func waitForValues(_ count: Int, _ seconds: Double = 10) async throws -> [Input] {
        try await waitUntil(seconds) { self.values.count >= count }
        return values
    }
}

/// Polls `condition` every 5 ms until it holds; throws `TimedOut` after `seconds`.
func waitUntil(_ seconds: Double = 10, _ condition: @escaping @Sendable () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw TimedOut(seconds: seconds) }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}

/// A bounded wait ran out.
struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds) s" }
}

/// Polls a main-actor `condition` every 5 ms until it holds; throws `TimedOut` after `seconds`.
@MainActor func waitUntilOnMainActor(_ seconds: Double = 10, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw TimedOut(seconds: seconds) }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}
