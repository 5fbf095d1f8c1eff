#if canImport(Combine)
import Combine
#elseif canImport(OpenCombine)
import OpenCombine
#endif
#if canImport(Combine) || canImport(OpenCombine)
import Foundation
import Salvo

/// Whether calls are in flight: for a spinner on one call, or a network activity indicator for
/// every call of an app.
///
/// Calls report to it through their firing function, so every way of firing counts: `fire()`,
/// publishers, `await response()`, a pager's pages.
///
/// ```swift
/// let activity = CallActivity()
/// environment.firing = environment.firing.reportingActivity(to: activity)   // every call
/// activity.inProgressPublisher()
///     .receive(on: DispatchQueue.main)
///     .sink { isBusy in spinner.isHidden = !isBusy }
///     .store(in: &cancellables)
/// ```
///
/// A call counts from the moment it is fired until its outcome is handed on (just before the
/// call's own handlers, or the awaiting caller, receive it), cancellation and requests that could
/// not be built included; a retry an action asks for stays within the one call.
public final class CallActivity: @unchecked Sendable {
    // @unchecked Sendable: every stored `var` is only touched while `lock` is held. Streams are
    // fed under the lock so that concurrent calls' changes reach them in the order they happened;
    // yielding to a stream runs no subscriber code.
    private let lock = NSLock()
    private var count = 0
    private var nextStreamID = 0
    private var streams: [Int: AsyncStream<Bool>.Continuation] = [:]

    /// An activity with no call in flight.
    public init() {}

    deinit {
        streams.values.forEach { $0.finish() }
    }

    /// How many calls reporting here are in flight.
    public var callsInFlight: Int { lock.withLock { count } }

    /// Whether any call reporting here is in flight.
    public var isInProgress: Bool { callsInFlight > 0 }

    /// A publisher of ``isInProgress``: its current value, then each change (`true` when the first
    /// call starts, `false` when the last one ends). It finishes when the activity is released.
    public func inProgressPublisher() -> StatePublisher<Bool> {
        StatePublisher { self.stream() }
    }

    private func stream() -> AsyncStream<Bool> {
        var continuation: AsyncStream<Bool>.Continuation?
        let stream = AsyncStream(Bool.self) { continuation = $0 }
        guard let continuation else { return stream }
        let id = lock.withLock {
            defer { nextStreamID += 1 }
            continuation.yield(count > 0)
            streams[nextStreamID] = continuation
            return nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { _ = self.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Counts a call in (`1`) or out (`-1`), telling the streams when the activity changes.
    func changeCount(by change: Int) {
        lock.withLock {
            let wasInProgress = count > 0
            // Never below zero, so a firing function that reported one outcome twice cannot hide the next call.
            count = max(0, count + change)
            if wasInProgress != (count > 0) {
                streams.values.forEach { $0.yield(count > 0) }
            }
        }
    }
}

extension FiringFunction {
    /// This firing function, reporting each call it fires to `activity` until the call's
    /// outcome is handed on (to its responder, its awaiting caller or its stream).
    ///
    /// ```swift
    /// var call = saveCall
    /// call.firingFunction = call.firingFunction.reportingActivity(to: saving)
    /// ```
    public func reportingActivity(to activity: CallActivity) -> FiringFunction {
        FiringFunction { call, channel in
            activity.changeCount(by: 1)
            // Runs exactly once for every firing, whatever its outcome.
            return self(call, channel.onFinish { _ in activity.changeCount(by: -1) })
        }
    }
}
#endif
