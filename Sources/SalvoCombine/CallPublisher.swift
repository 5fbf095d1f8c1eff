// Every file of this module imports Combine on Apple platforms and OpenCombine where the
// check package (Checks/Combine) builds the same file against it; the root package on Linux
// has neither and compiles the module empty.
#if canImport(Combine)
import Combine
#elseif canImport(OpenCombine)
import OpenCombine
#endif
#if canImport(Combine) || canImport(OpenCombine)
import Foundation
import Salvo

/// A publisher that fires a call when a subscriber asks for a value, then publishes its one
/// outcome: the value and `.finished`, or the failure.
///
/// ```swift
/// api.book(id: 1).valuePublisher()                 // CallPublisher<Book, APIError<Problem>>
///     .sink(receiveCompletion: { … }, receiveValue: { book in … })
///     .store(in: &cancellables)
/// ```
///
/// - **Nothing is sent until a subscriber's first demand**; each subscription fires the call
///   anew (use `share()` to fire once for several subscribers).
/// - The call fires through its `firingFunction`, so its actions run and mock, replay or spy
///   firing drive the publisher exactly as production firing does.
/// - The call's own responder runs first, on the call's `callbackQueue` (main by default); the
///   publisher then delivers on that same queue. Use `receive(on:)` to move elsewhere.
/// - **Cancelling the subscription cancels the request**: the call's handlers receive
///   `NetworkError.cancelled`, the subscriber receives nothing more.
public struct CallPublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
    /// Fires the call with a completion that receives its one outcome, and returns its task.
    typealias Start = @Sendable (_ completion: @escaping @Sendable (Result<Output, Failure>) -> Void) -> NetworkTask

    private let start: Start

    /// A publisher that runs `start` for each subscription, on the subscriber's first demand.
    ///
    /// `start` hands exactly one result to its completion: Salvo's firing always does, also when
    /// the task is cancelled.
    init(_ start: @escaping Start) {
        self.start = start
    }

    /// Attaches `subscriber`; the call fires when it first requests a value.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: CallSubscription(downstream: AnySubscriber(subscriber), start: start))
    }
}

/// One subscription to a ``CallPublisher``: fires once on the first demand, delivers once.
///
/// `@unchecked Sendable`: `state` is only read and written while `lock` is held; the downstream
/// subscriber is called outside the lock, and only by whoever moved `state` to `.finished`, so it
/// receives the value and the completion at most once and never after `cancel()`.
///
/// The subscriber is type-erased so that the closures this class hands to firing capture no
/// generic subscriber type, whose metatype need not be `Sendable`.
private final class CallSubscription<Output: Sendable, Failure: Error>: Subscription, @unchecked Sendable {
    private typealias Downstream = AnySubscriber<Output, Failure>

    private enum State {
        case waitingForDemand(Downstream, CallPublisher<Output, Failure>.Start)
        case firing(Downstream, NetworkTask?)
        case finished
    }

    private let lock = NSLock()
    private var state: State

    init(downstream: AnySubscriber<Output, Failure>, start: @escaping CallPublisher<Output, Failure>.Start) {
        state = .waitingForDemand(downstream, start)
    }

    func request(_ demand: Subscribers.Demand) {
        let start: CallPublisher<Output, Failure>.Start? = lock.withLock {
            guard demand > 0, case .waitingForDemand(let downstream, let start) = state else { return nil }
            state = .firing(downstream, nil)
            return start
        }
        guard let start else { return }
        // The completion keeps this subscription alive until the outcome arrives; `finished`
        // then drops the subscriber and the task, so nothing outlives the firing.
        let task = start { result in self.finish(with: result) }
        let isFiring = lock.withLock {
            guard case .firing(let downstream, nil) = state else { return false }
            state = .firing(downstream, task)
            return true
        }
        // Cancelled while the call was being fired (or already answered: then this does nothing).
        if !isFiring { task.cancel() }
    }

    func cancel() {
        let task: NetworkTask? = lock.withLock {
            defer { state = .finished }
            guard case .firing(_, let task) = state else { return nil }
            return task
        }
        task?.cancel()
    }

    private func finish(with result: Result<Output, Failure>) {
        let downstream: Downstream? = lock.withLock {
            guard case .firing(let downstream, _) = state else { return nil }
            state = .finished
            return downstream
        }
        guard let downstream else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
#endif
