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
///
/// A value type whose `Decodable` conformance is isolated to the main actor (a plain model of an
/// app target with main-actor default isolation) is decoded on the main actor with
/// ``init(call:decodingOnMainActor:)``, or, for a ``TypedCall``, with ``init(_:)``, which takes the
/// type from the call.
@dynamicMemberLookup
public final class Refresher<Value: Sendable>: Refreshable, Sendable {
    /// The call fired by every refresh.
    let call: NetCall
    private let decode: Decode
    /// The typed handlers of the typed call the refresher was made from, handed each outcome
    /// after the state changed; `nil` for an untyped call. Set once, by the typed initializers.
    let typedHandlers = Locked<(@Sendable (Result<NetworkResponse, NetworkError>) -> Void)?>(nil)
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
        self.decode = .anywhere(decode)
    }

    /// A refresher whose value is the body decoded from JSON as `type`, where the response arrives.
    ///
    /// - Parameters:
    ///   - call: the call fired by every refresh.
    ///   - type: the value's type; its `Decodable` conformance must not be isolated to an actor.
    ///   - decoder: the decoder; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    public convenience init(call: NetCall, as type: Value.Type, decoder: JSONDecoder? = nil) where Value: Decodable & SendableMetatype {
        let decoder = decoder ?? call.server.decoder
        self.init(call: call) { response in try decoder.decode(Value.self, from: response.data) }
    }

    /// A refresher that makes its value from each successful response with `decode`, on the main
    /// actor: for a value type whose `Decodable` conformance is isolated to it (a plain model of an
    /// app target with main-actor default isolation).
    ///
    /// ```swift
    /// let profile = Refresher(call: profileCall) { response in
    ///     try profileCall.server.decoder.decode(Profile.self, from: response.data)
    /// }
    /// ```
    ///
    /// ``init(call:as:decoder:)`` cannot take such a type: the refresher's state, value included,
    /// is readable from any thread, so `Value` is `Sendable`, and a `Sendable` type parameter takes
    /// no isolated conformance (SE-0470). Here the conformance is used only in your closure, on
    /// the main actor.
    ///
    /// - Parameters:
    ///   - call: the call fired by every refresh.
    ///   - decode: makes the value of a successful response, on the main actor.
    @MainActor
    public init(call: NetCall, decodingOnMainActor decode: @escaping @MainActor @Sendable (NetworkResponse) throws -> Value) {
        self.call = call
        self.decode = .onMainActor(decode)
    }

    /// How a response becomes the value, and where.
    private enum Decode: Sendable {
        case anywhere(@Sendable (NetworkResponse) throws -> Value)
        /// Made on the main actor for a value type whose conformance is isolated to it; runs there.
        case onMainActor(@MainActor @Sendable (NetworkResponse) throws -> Value)
    }

    /// The current state: the value, whether a refresh is in flight, the last error.
    public var state: RefreshState<Value> { loader.state }

    /// The current state's properties, read through: `value` (the last that arrived) and
    /// `updatedAt` (see ``RefreshState``).
    public subscript<Property>(dynamicMember keyPath: KeyPath<RefreshState<Value>, Property>) -> Property {
        state[keyPath: keyPath]
    }

    /// Whether a refresh is in flight; stated, not read through, because ``Refreshable`` asks for it.
    public var isRefreshing: Bool { state.isRefreshing }

    /// The error of the last failed refresh. Stated for ``Refreshable``.
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
                call.fire(reporting: { [weak self] result in
                    self?.finish(id, with: result)
                    self?.typedHandlers.withLock { $0 }?(result)
                })
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

    /// An async sequence of snapshots: the current state, then each change.
    public func states() -> AsyncStream<RefreshState<Value>> {
        loader.states()
    }

    private func finish(_ id: Int, with result: Result<NetworkResponse, NetworkError>) {
        guard case .success(let response) = result, case .onMainActor(let decode) = decode, !isOnMainActor() else {
            finish(id, with: result.flatMap { response in Self.value(of: response) { try self.decode(response) } })
            return
        }
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.finish(id, with: Self.value(of: response) { try decode(response) })
            }
        }
    }

    /// Decodes `response` here: in place, or for a main-actor decoder on the main thread, where
    /// ``finish(_:with:)`` only calls it.
    private func decode(_ response: NetworkResponse) throws -> Value {
        switch decode {
        case .anywhere(let decode): return try decode(response)
        case .onMainActor(let decode): return try MainActor.assumeIsolated { try decode(response) }
        }
    }

    private static func value(of response: NetworkResponse, _ decode: () throws -> Value) -> Result<Value, NetworkError> {
        do {
            return .success(try decode())
        } catch let error as NetworkError {
            return .failure(error)
        } catch {
            return .failure(.decoding(DecodingProblem(error, body: response.data, type: Value.self)))
        }
    }

    private func finish(_ id: Int, with outcome: Result<Value, NetworkError>) {
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
