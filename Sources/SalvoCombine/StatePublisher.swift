#if canImport(Combine)
import Combine
#elseif canImport(OpenCombine)
import OpenCombine
#endif
#if canImport(Combine) || canImport(OpenCombine)
import Foundation
import Salvo

/// A publisher of a pager's, refresher's or activity's state: the current state, then each
/// change, in order. It never fails; it finishes when the observed object is released.
///
/// ```swift
/// pager.statePublisher()
///     .receive(on: DispatchQueue.main)
///     .sink { state in
///         tableView.reload(state.items)
///         spinner.isHidden = !state.isLoading
///     }
///     .store(in: &cancellables)
/// ```
///
/// Values arrive on the main actor, like ``Pager/observe(_:)``'s, so a `@MainActor` screen model
/// can `sink` without `receive(on:)`. Each subscription observes on its own and holds only its
/// stream of states, not the object. States the subscriber had no time to read, or asked for no
/// value for, are skipped: it always gets the newest state, never a stale one.
public struct StatePublisher<State: Sendable>: Publisher, Sendable {
    /// The state snapshots.
    public typealias Output = State
    /// A state publisher never fails.
    public typealias Failure = Never

    private let makeStream: @Sendable () -> AsyncStream<State>

    /// A publisher that reads a new stream from `makeStream` for each subscription.
    init(_ makeStream: @escaping @Sendable () -> AsyncStream<State>) {
        self.makeStream = makeStream
    }

    /// Attaches `subscriber`; states flow as it asks for them.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == State, S.Failure == Never {
        subscriber.receive(subscription: StateSubscription(downstream: AnySubscriber(subscriber), stream: makeStream()))
    }
}

extension Pager {
    /// A publisher of the pager's state: the current ``PagingState``, then each change. It
    /// finishes when the pager is released; see ``StatePublisher``.
    public func statePublisher() -> StatePublisher<PagingState<Item>> {
        StatePublisher { self.states() }
    }
}

extension Refresher {
    /// A publisher of the refresher's state: the current ``RefreshState``, then each change. It
    /// finishes when the refresher is released; see ``StatePublisher``.
    public func statePublisher() -> StatePublisher<RefreshState<Value>> {
        StatePublisher { self.states() }
    }
}

/// One subscription to a ``StatePublisher``: reads the stream in a main-actor task once there is
/// demand and hands each state on there, keeping only the newest while the subscriber asks for none.
///
/// `@unchecked Sendable`: every stored `var` is only touched while `lock` is held. The
/// downstream subscriber is called outside the lock by one thread at a time: `isDelivering`
/// makes whoever finds it set leave its state in `pending` for the thread already delivering,
/// which loops until nothing is left, so states stay in order and a subscriber that requests
/// more (or cancels) from inside `receive` does not deadlock. The subscriber is type-erased so
/// that the reading task captures no generic subscriber type, whose metatype need not be `Sendable`.
private final class StateSubscription<State: Sendable>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<State, Never>?
    private var stream: AsyncStream<State>?
    private var reader: Task<Void, Never>?
    private var demand = Subscribers.Demand.none
    private var pending: State?
    private var isStreamFinished = false
    private var isDelivering = false

    init(downstream: AnySubscriber<State, Never>, stream: AsyncStream<State>) {
        self.downstream = downstream
        self.stream = stream
    }

    func request(_ more: Subscribers.Demand) {
        let (unread, hasPending): (AsyncStream<State>?, Bool) = lock.withLock {
            guard downstream != nil, more > 0 else { return (nil, false) }
            demand += more
            defer { stream = nil }
            return (stream, pending != nil)
        }
        if let unread { startReading(unread) }
        if hasPending { Task { @MainActor in self.deliver() } }
    }

    func cancel() {
        let reader: Task<Void, Never>? = lock.withLock {
            downstream = nil
            pending = nil
            stream = nil
            defer { self.reader = nil }
            return self.reader
        }
        // Cancelling the reading task ends its stream, which stops observing the object.
        reader?.cancel()
    }

    private func startReading(_ stream: AsyncStream<State>) {
        let reader = Task { @MainActor [weak self] in
            for await state in stream {
                guard let self else { return }
                self.lock.withLock { self.pending = state }
                self.deliver()
            }
            guard let self else { return }
            self.lock.withLock { self.isStreamFinished = true }
            self.deliver()
        }
        let isCancelled = lock.withLock {
            guard downstream != nil else { return true }
            self.reader = reader
            return false
        }
        if isCancelled { reader.cancel() }
    }

    /// Hands pending states on while there is demand, then the completion once the stream ended.
    private func deliver() {
        lock.lock()
        guard !isDelivering else { return lock.unlock() }
        isDelivering = true
        while let downstream = self.downstream {
            if demand > 0, let state = pending {
                pending = nil
                demand -= 1
                lock.unlock()
                let more = downstream.receive(state)
                lock.lock()
                if more > 0 { demand += more }
            } else if isStreamFinished {
                // A state the subscriber never asked for is not worth holding the completion back.
                self.downstream = nil
                pending = nil
                isDelivering = false
                lock.unlock()
                downstream.receive(completion: .finished)
                return
            } else {
                break
            }
        }
        isDelivering = false
        lock.unlock()
    }
}
#endif
