import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where one firing's outcome goes: the way of firing tells the ``FiringFunction`` through it.
///
/// Each way of firing has its own channel, so no entry point rewrites the call to get its result:
/// - `fire()`, `fire { result in … }`, publishers: the call's responder on its callback queue
///   (and the one `Result` after it);
/// - `value()`, `response()`, ``Transfer``, the pager and ``Refresher``: one `Result`, handed over
///   where the outcome is made, with no callback queue in between;
/// - `bytes()`, `lines()`, `events()`, `download(to:)`: a body stream, which ends with the outcome;
/// - `stream(to:)`: a body stream beside the call's responder.
///
/// A custom firing function passes the channel on, and may watch the end with ``onFinish(_:)``:
///
/// ```swift
/// let logged = FiringFunction { call, channel in
///     FiringFunction.production(call, channel.onFinish { error in log(call.endpoint, error) })
/// }
/// ```
public struct FiringChannel: Sendable {
    /// Who receives the outcome once the body, if streamed, has ended.
    enum Destination: Sendable {
        /// The responder's handlers in their documented order on `queue`, then `completion` with
        /// the outcome as one `Result`.
        case responder(NetworkResponder, on: CallbackQueue, then: (@Sendable (Result<NetworkResponse, NetworkError>) -> Void)?)
        /// One `Result`, on whatever thread the outcome is made.
        case result(@Sendable (Result<NetworkResponse, NetworkError>) -> Void)
        /// Nobody beyond the body stream, whose end is the outcome.
        case bodyStream
    }

    let destination: Destination
    /// Where the body goes as it arrives; `nil` when the call reads it whole.
    let bodyReceiver: (any ResponseReceiver)?
    /// Who hears about upload and download progress, and on which queue; `nil` when nobody asked.
    let progress: (handler: @Sendable (TransferProgress) -> Void, queue: CallbackQueue)?
    /// What runs with the outcome's error (`nil` on success) before the destination receives it.
    private(set) var finishHandlers: [@Sendable (NetworkError?) -> Void] = []

    private init(
        _ destination: Destination,
        bodyReceiver: (any ResponseReceiver)? = nil,
        progress: (handler: @Sendable (TransferProgress) -> Void, queue: CallbackQueue)? = nil
    ) {
        self.destination = destination
        self.bodyReceiver = bodyReceiver
        self.progress = progress
    }

    /// The channel of `fire()`: `responder`'s handlers on `queue`, then `completion` if given;
    /// a body stream beside them when `bodyReceiver` is given.
    static func responder(
        _ responder: NetworkResponder,
        on queue: CallbackQueue,
        then completion: (@Sendable (Result<NetworkResponse, NetworkError>) -> Void)? = nil,
        streamingTo bodyReceiver: (any ResponseReceiver)? = nil
    ) -> FiringChannel {
        FiringChannel(
            .responder(responder, on: queue, then: completion),
            bodyReceiver: bodyReceiver,
            progress: responder.progressHandler.map { ($0, queue) }
        )
    }

    /// The channel of the async API: the outcome as one `Result` where it is made, progress too.
    static func result(
        _ completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> FiringChannel {
        FiringChannel(.result(completion), progress: progress.map { ($0, .immediate) })
    }

    /// The channel of a streamed body: `receiver` takes the head, each chunk, and the end.
    static func bodyStream(_ receiver: any ResponseReceiver) -> FiringChannel {
        FiringChannel(.bodyStream, bodyReceiver: receiver)
    }

    /// This channel, running `handler` with the outcome's error (`nil` on success) once per
    /// firing, just before the outcome reaches its destination (the responder, the awaiting
    /// caller, the stream's end), on whatever thread the outcome is made.
    ///
    /// For a firing function that wraps another and must know when the call ends (a span, an
    /// activity count); cancellation and requests that could not be built end here too.
    public func onFinish(_ handler: @escaping @Sendable (NetworkError?) -> Void) -> FiringChannel {
        var channel = self
        channel.finishHandlers.append(handler)
        return channel
    }
}
