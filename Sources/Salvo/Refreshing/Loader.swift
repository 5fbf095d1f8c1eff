import Dispatch

/// The machinery a ``Pager`` and a ``Refresher`` share: their state behind one lock, the one load
/// in flight that changes it, and the observers who see every change.
///
/// Each load gets a new id. An outcome is applied only while its load is still the one in
/// flight, so a load that was cancelled, or replaced by a refresh, never lands. Waiters (the
/// callers of an async load method) resume when the load they wait for ends, however it ends.
final class Loader<Core: LoaderCore, Details: Sendable>: Sendable {
    /// One load in flight: what it is for, the task firing it, and who waits for it.
    struct Load {
        let id: Int
        let details: Details
        var task: NetworkTask?
        var waiters: [CheckedContinuation<Void, Never>]
    }

    /// What to do with a request for a load, decided under the lock.
    enum Start {
        /// Wait for the load in flight.
        case join
        /// Start a load, replacing the one in flight: that one's task is cancelled and its
        /// waiters wait for this one. The core already shows it in flight.
        case load(Details)
        /// Start nothing; the waiter resumes at once. The core changed when `isChanged`.
        case skip(isChanged: Bool)
    }

    /// What ``start(waiter:decide:fire:)`` does once it has left the lock.
    private enum AfterStart {
        case wait
        case resume
        case fire(Load, replacing: NetworkTask?)
    }

    private struct Guarded {
        var core: Core
        var load: Load?
        var nextLoadID = 0
    }

    private let guarded: Locked<Guarded>
    private let broadcaster = StateBroadcaster<Core.State>()

    /// A loader starting from `core`, with no load in flight.
    init(_ core: Core) {
        guarded = Locked(Guarded(core: core))
    }

    /// The current state.
    var state: Core.State { guarded.withLock { $0.core.state } }

    /// Reads the core and the load in flight under the lock.
    func read<Value>(_ body: (Core, Load?) -> Value) -> Value {
        guarded.withLock { body($0.core, $0.load) }
    }

    // MARK: - Loading

    /// Starts, joins or skips a load as `decide` says; `waiter`, if any, resumes when the load
    /// it ends up waiting for is over.
    ///
    /// - Parameters:
    ///   - decide: runs under the lock with the core and the details of the load in flight; it
    ///     marks a load it starts as in flight in the core's state.
    ///   - fire: starts the load with the given id outside the lock; its outcome must come back
    ///     through ``finish(_:_:)`` with that id.
    func start(
        waiter: CheckedContinuation<Void, Never>?,
        decide: (inout Core, Details?) -> Start,
        fire: (Int, Details) -> NetworkTask
    ) {
        let next = guarded.withLock { guarded -> AfterStart in
            switch decide(&guarded.core, guarded.load?.details) {
            case .join:
                guarded.load?.waiters += waiter.map { [$0] } ?? []
                return .wait
            case .skip(let isChanged):
                if isChanged { broadcaster.publish(guarded.core.state) }
                return .resume
            case .load(let details):
                let replaced = guarded.load
                let load = Load(
                    id: guarded.nextLoadID, details: details,
                    waiters: (replaced?.waiters ?? []) + (waiter.map { [$0] } ?? [])
                )
                guarded.nextLoadID += 1
                guarded.load = load
                broadcaster.publish(guarded.core.state)
                return .fire(load, replacing: replaced?.task)
            }
        }
        let load: Load
        switch next {
        case .wait: return
        case .resume:
            waiter?.resume()
            return
        case .fire(let started, let replaced):
            replaced?.cancel()
            load = started
        }
        let task = fire(load.id, load.details)
        let isStale = guarded.withLock { guarded in
            guard guarded.load?.id == load.id else { return true }
            guarded.load?.task = task
            return false
        }
        // Replaced or cancelled while firing; a task that already finished ignores this.
        if isStale { task.cancel() }
    }

    /// Whether the load with `id` is still the one in flight.
    func isInFlight(_ id: Int) -> Bool {
        guarded.withLock { $0.load?.id == id }
    }

    /// Ends the load with `id` with `apply`, when it is still the one in flight; otherwise does nothing.
    func finish(_ id: Int, _ apply: (inout Core, Details) -> Void) {
        let waiters = guarded.withLock { guarded -> [CheckedContinuation<Void, Never>] in
            guard let load = guarded.load, load.id == id else { return [] }
            apply(&guarded.core, load.details)
            guarded.load = nil
            guarded.core.loadDidEnd()
            broadcaster.publish(guarded.core.state)
            return load.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Cancels the load in flight, if any; the core keeps everything but its in-flight flags.
    func cancel() {
        let cancelled = guarded.withLock { guarded -> Load? in
            guard let load = guarded.load else { return nil }
            guarded.load = nil
            guarded.core.loadDidEnd()
            broadcaster.publish(guarded.core.state)
            return load
        }
        cancelled?.task?.cancel()
        cancelled?.waiters.forEach { $0.resume() }
    }

    // MARK: - Observing

    /// Calls `handler` on the main actor with the current state, then after every change.
    func observe(_ handler: @escaping @MainActor @Sendable (Core.State) -> Void) -> StateObservation {
        observe(on: .main) { state in MainActor.assumeIsolated { handler(state) } }
    }

    /// Calls `handler` on `queue` with the current state, then after every change.
    func observe(on queue: DispatchQueue, _ handler: @escaping @Sendable (Core.State) -> Void) -> StateObservation {
        guarded.withLock { guarded in broadcaster.observe(current: guarded.core.state, on: queue, handler) }
    }

    /// The current state, then each change, as an async sequence that ends when the loader goes away.
    func states() -> AsyncStream<Core.State> {
        guarded.withLock { guarded in broadcaster.stream(current: guarded.core.state) }
    }

    deinit {
        broadcaster.finish()
    }
}

/// What a ``Loader`` guards for its owner: the published state and whatever else the owner keeps.
protocol LoaderCore {
    associatedtype State: Sendable
    /// What observers see.
    var state: State { get }
    /// Clears the state's in-flight flags: the load ended or was cancelled.
    mutating func loadDidEnd()
}
