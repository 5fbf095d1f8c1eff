import Dispatch

/// Hands every new state to callbacks and async streams, in order.
///
/// The owner calls ``publish(_:)``, ``observe(current:on:_:)`` and ``stream(current:)`` while
/// holding its own lock, so the initial state and later changes reach each subscriber in the
/// order they happened. Nothing here runs subscriber code inline: callbacks are queued and
/// streams buffered, so the owner's lock is never held while user code runs.
final class StateBroadcaster<State: Sendable>: Sendable {
    private struct Subscribers {
        var nextID = 0
        var callbacks: [Int: @Sendable (State) -> Void] = [:]
        var streams: [Int: AsyncStream<State>.Continuation] = [:]
    }

    private let subscribers = Locked(Subscribers())

    /// Runs `handler` on `queue` with `current`, then with every published state.
    func observe(current: State, on queue: DispatchQueue, _ handler: @escaping @Sendable (State) -> Void) -> StateObservation {
        let deliver: @Sendable (State) -> Void = { state in queue.async { handler(state) } }
        let id = subscribers.withLock { subscribers in
            defer { subscribers.nextID += 1 }
            subscribers.callbacks[subscribers.nextID] = deliver
            return subscribers.nextID
        }
        deliver(current)
        return StateObservation { [weak self] in
            self?.subscribers.withLock { _ = $0.callbacks.removeValue(forKey: id) }
        }
    }

    /// A stream that yields `current`, then every published state; a slow reader gets the newest.
    func stream(current: State) -> AsyncStream<State> {
        var continuation: AsyncStream<State>.Continuation?
        let stream = AsyncStream(State.self, bufferingPolicy: .bufferingNewest(1)) { continuation = $0 }
        guard let continuation else { return stream }
        continuation.yield(current)
        let id = subscribers.withLock { subscribers in
            defer { subscribers.nextID += 1 }
            subscribers.streams[subscribers.nextID] = continuation
            return subscribers.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `state` to every subscriber.
    func publish(_ state: State) {
        let (callbacks, streams) = subscribers.withLock { ($0.callbacks.values, $0.streams.values) }
        callbacks.forEach { $0(state) }
        streams.forEach { $0.yield(state) }
    }

    /// Ends every stream; the owner calls this when it goes away.
    func finish() {
        let streams = subscribers.withLock { subscribers in
            defer { subscribers.streams = [:] }
            return subscribers.streams.values
        }
        streams.forEach { $0.finish() }
    }
}
