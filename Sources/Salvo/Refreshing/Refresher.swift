import Foundation

/// Keeps the latest value of a non-paged call: each ``refresh()`` fires the call again and
/// replaces the value when the new one arrives.
///
/// Like ``Pager``, it fires through the call's firing function, is safe from any thread, and
/// its async methods need no run loop. A failed refresh keeps the old value and sets ``error``.
///
/// ```swift
/// let profile = Refresher(call: profileCall, as: Profile.self)
/// await profile.refresh()
/// profile.observe { state in header.show(state.value) }
/// ```
public final class Refresher<Value: Sendable>: Refreshable, Sendable {
    /// The call fired by every refresh.
    public let call: NetCall
    private let decode: @Sendable (NetworkResponse) throws -> Value
    let core = Locked(Core())
    private let broadcaster = StateBroadcaster<RefreshState<Value>>()

    struct Core {
        var state = RefreshState<Value>()
        var load: (id: Int, task: NetworkTask?, waiters: [CheckedContinuation<Void, Never>])?
        var nextLoadID = 0
    }

    /// A refresher that makes its value from each successful response with `decode`; an error it
    /// throws that is not a ``NetworkError`` becomes ``NetworkError/decoding(_:)``.
    public init(call: NetCall, decode: @escaping @Sendable (NetworkResponse) throws -> Value) {
        self.call = call
        self.decode = decode
    }

    /// A refresher whose value is the body decoded from JSON as `type`.
    public convenience init(call: NetCall, as type: Value.Type, decoder: JSONDecoder = JSONDecoder()) where Value: Decodable {
        self.init(call: call) { response in try decoder.decode(Value.self, from: response.data) }
    }

    deinit {
        broadcaster.finish()
    }

    /// The current state: the value, whether a refresh is in flight, the last error.
    public var state: RefreshState<Value> { core.withLock { $0.state } }

    /// The last value that arrived.
    public var value: Value? { state.value }

    /// Whether a refresh is in flight.
    public var isRefreshing: Bool { state.isRefreshing }

    /// The error of the last failed refresh.
    public var error: NetworkError? { state.error }

    /// Fires the call again and replaces the value when it arrives; returns when done or failed.
    /// A refresh already in flight is joined, not repeated.
    public func refresh() async {
        await withCheckedContinuation { continuation in
            let id = core.withLock { core -> Int? in
                if core.load != nil {
                    core.load?.waiters.append(continuation)
                    return nil
                }
                defer { core.nextLoadID += 1 }
                core.load = (core.nextLoadID, nil, [continuation])
                core.state.isRefreshing = true
                broadcaster.publish(core.state)
                return core.nextLoadID
            }
            guard let id else { return }
            let task = call.fire(reporting: { [weak self] result in self?.finish(id, with: result) })
            let isStale = core.withLock { core in
                guard core.load?.id == id else { return true }
                core.load?.task = task
                return false
            }
            if isStale { task.cancel() }
        }
    }

    /// Cancels the refresh in flight, if any; the value stays.
    public func cancel() {
        let load = core.withLock { core in
            defer { core.load = nil }
            if core.load != nil {
                core.state.isRefreshing = false
                broadcaster.publish(core.state)
            }
            return core.load
        }
        load?.task?.cancel()
        load?.waiters.forEach { $0.resume() }
    }

    /// Calls `handler` on the main actor with the current state, then after every change.
    @discardableResult
    public func observe(_ handler: @escaping @MainActor @Sendable (RefreshState<Value>) -> Void) -> StateObservation {
        observe(on: .main) { state in MainActor.assumeIsolated { handler(state) } }
    }

    /// Calls `handler` on `queue` with the current state, then after every change.
    @discardableResult
    public func observe(on queue: DispatchQueue, _ handler: @escaping @Sendable (RefreshState<Value>) -> Void) -> StateObservation {
        core.withLock { core in broadcaster.observe(current: core.state, on: queue, handler) }
    }

    /// An async sequence of snapshots: the current state, then each change.
    public func states() -> AsyncStream<RefreshState<Value>> {
        core.withLock { core in broadcaster.stream(current: core.state) }
    }

    private func finish(_ id: Int, with result: Result<NetworkResponse, NetworkError>) {
        let outcome = result.flatMap { response -> Result<Value, NetworkError> in
            do {
                return .success(try decode(response))
            } catch let error as NetworkError {
                return .failure(error)
            } catch {
                return .failure(.decoding(DecodingProblem(error, body: response.data, type: Value.self)))
            }
        }
        let waiters = core.withLock { core -> [CheckedContinuation<Void, Never>] in
            guard let load = core.load, load.id == id else { return [] }
            switch outcome {
            case .success(let value):
                core.state.value = value
                core.state.updatedAt = Date()
                core.state.error = nil
            case .failure(let error):
                core.state.error = error
            }
            core.load = nil
            core.state.isRefreshing = false
            broadcaster.publish(core.state)
            return load.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
