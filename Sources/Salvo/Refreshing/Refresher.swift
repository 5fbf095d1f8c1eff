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
    let loader = Loader<Core, Void>(Core())

    /// The refresher's state, guarded by ``loader``; its one load needs no details.
    struct Core: LoaderCore {
        var state = RefreshState<Value>()

        mutating func loadDidEnd() {
            state.isRefreshing = false
        }
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

    /// The current state: the value, whether a refresh is in flight, the last error.
    public var state: RefreshState<Value> { loader.state }

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
            loader.start(waiter: continuation) { core, inFlight in
                guard inFlight == nil else { return .join }
                core.state.isRefreshing = true
                return .load(())
            } fire: { id, _ in
                call.fire(reporting: { [weak self] result in self?.finish(id, with: result) })
            }
        }
    }

    /// Cancels the refresh in flight, if any; the value stays.
    public func cancel() {
        loader.cancel()
    }

    /// Calls `handler` on the main actor with the current state, then after every change.
    @discardableResult
    public func observe(_ handler: @escaping @MainActor @Sendable (RefreshState<Value>) -> Void) -> StateObservation {
        loader.observe(handler)
    }

    /// Calls `handler` on `queue` with the current state, then after every change.
    @discardableResult
    public func observe(on queue: DispatchQueue, _ handler: @escaping @Sendable (RefreshState<Value>) -> Void) -> StateObservation {
        loader.observe(on: queue, handler)
    }

    /// An async sequence of snapshots: the current state, then each change.
    public func states() -> AsyncStream<RefreshState<Value>> {
        loader.states()
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
        loader.finish(id) { core, _ in
            switch outcome {
            case .success(let value):
                core.state.value = value
                core.state.updatedAt = Date()
                core.state.error = nil
            case .failure(let error):
                core.state.error = error
            }
        }
    }
}
