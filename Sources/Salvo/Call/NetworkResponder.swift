import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The handlers that receive one call's outcome, each settable from a different place.
///
/// For each firing, handlers run in this order, each at most once, on the call's ``CallbackQueue``:
/// 1. `taskHandler` when the task is created (not for a request that could not be built);
/// 2. `responseHandler` with the response, `nil` when none arrived (not for an invalid request);
/// 3. `httpResponseHandler` whenever an HTTP response arrived, also one an action then refused;
/// 4. `metricsHandler` with what each attempt measured, when the server collects metrics;
/// 5. then exactly one of:
///    - ``NetworkError/serverStatus(_:)`` (a status outside 200–299, or a status an action
///      refused): `errorDataHandler(body)`, then `serverErrorHandler`;
///    - any other failure (transport, cancellation, invalid request, a response an action refused
///      for another reason): `errorHandler`, then `errorDataHandler`;
///    - otherwise `dataHandler(body)`.
///
/// ```swift
/// var responder = NetworkResponder()
/// responder.taskHandler = { _ in spinner.start() }       // in a view
/// responder.dataHandler = { data in model.parse(data) } // in a model
/// responder.errorHandler = { error in alerts.show(error) }
/// ```
public struct NetworkResponder: Sendable {
    /// Receives the task as soon as it is created, e.g. to keep it for cancelling.
    ///
    /// Unset (the default), nothing is handed to the callback queue when the task is created.
    public var taskHandler: @Sendable (NetworkTask) -> Void {
        get { onTask ?? { _ in } }
        set { handlers.onTask = newValue }
    }
    /// Receives the response, or `nil` when the call failed before one arrived.
    ///
    /// Unset (the default), no Foundation response is made for it: a transport that parses HTTP
    /// itself reports a ``ResponseHead``, and its `URLResponse` is made only when somebody reads it.
    public var responseHandler: @Sendable (URLResponse?) -> Void {
        get { onResponse ?? { _ in } }
        set { handlers.onResponse = newValue }
    }
    /// Receives the HTTP response whatever its status; unset, as cheap as ``responseHandler``.
    public var httpResponseHandler: @Sendable (HTTPURLResponse) -> Void {
        get { onHTTPResponse ?? { _ in } }
        set { handlers.onHTTPResponse = newValue }
    }
    /// Receives the body of a successful (2xx) response; empty when there is none.
    public var dataHandler: @Sendable (Data) -> Void {
        get { box.handlers.dataHandler }
        set { handlers.dataHandler = newValue }
    }
    /// Receives transport failures, cancellation, invalid requests and action failures.
    public var errorHandler: @Sendable (NetworkError) -> Void {
        get { box.handlers.errorHandler }
        set { handlers.errorHandler = newValue }
    }
    /// Receives ``NetworkError/serverStatus(_:)`` for a status outside 200–299.
    public var serverErrorHandler: @Sendable (NetworkError) -> Void {
        get { box.handlers.serverErrorHandler }
        set { handlers.serverErrorHandler = newValue }
    }
    /// Receives the body that came with any failure, `nil` when there was none.
    public var errorDataHandler: @Sendable (Data?) -> Void {
        get { box.handlers.errorDataHandler }
        set { handlers.errorDataHandler = newValue }
    }
    /// Receives upload and download progress while the call runs, at most 10 times a second per
    /// direction, then 100% exactly once per direction on success, before `dataHandler`; `nil`
    /// (the default) costs nothing. See ``TransferProgress``.
    public var progressHandler: (@Sendable (TransferProgress) -> Void)? {
        get { box.handlers.progressHandler }
        set { handlers.progressHandler = newValue }
    }
    /// Receives what each attempt measured, in attempt order, when the call's server collects
    /// metrics (``ServerConfig/collectsMetrics``); never called otherwise. See ``AttemptMetrics``.
    public var metricsHandler: (@Sendable ([AttemptMetrics]) -> Void)? {
        get { box.handlers.metricsHandler }
        set { handlers.metricsHandler = newValue }
    }

    /// What ``taskHandler`` stores; `nil` while unset.
    var onTask: (@Sendable (NetworkTask) -> Void)? { box.handlers.onTask }
    /// What ``responseHandler`` stores; `nil` while unset.
    var onResponse: (@Sendable (URLResponse?) -> Void)? { box.handlers.onResponse }
    /// What ``httpResponseHandler`` stores; `nil` while unset.
    var onHTTPResponse: (@Sendable (HTTPURLResponse) -> Void)? { box.handlers.onHTTPResponse }
    /// Whether a decoding handler (`decoding(_:decoder:then:)`
    /// without a decoder of its own) reads the call's ``ServerConfig/decoder`` during dispatch.
    @usableFromInline var usesServerDecoder: Bool {
        get { box.handlers.usesServerDecoder }
        set { handlers.usesServerDecoder = newValue }
    }

    /// The handlers, in one immutable object: the call, its channel and its task each hold the
    /// responder, so a copy costs one retain instead of nine. Setting a handler makes a new one
    /// (configuring, not firing, pays for it). The firing path reads its fields directly
    /// (`box.handlers.progressHandler`), not through the getters above.
    private(set) var box: Box

    private var handlers: Handlers {
        get { box.handlers }
        set { box = Box(newValue) }
    }

    /// A responder whose handlers default to doing nothing.
    public init(
        taskHandler: (@Sendable (NetworkTask) -> Void)? = nil,
        responseHandler: (@Sendable (URLResponse?) -> Void)? = nil,
        httpResponseHandler: (@Sendable (HTTPURLResponse) -> Void)? = nil,
        dataHandler: @escaping @Sendable (Data) -> Void = { _ in },
        errorHandler: @escaping @Sendable (NetworkError) -> Void = { _ in },
        serverErrorHandler: @escaping @Sendable (NetworkError) -> Void = { _ in },
        errorDataHandler: @escaping @Sendable (Data?) -> Void = { _ in },
        progressHandler: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        box = Box(Handlers(
            onTask: taskHandler,
            onResponse: responseHandler,
            onHTTPResponse: httpResponseHandler,
            dataHandler: dataHandler,
            errorHandler: errorHandler,
            serverErrorHandler: serverErrorHandler,
            errorDataHandler: errorDataHandler,
            progressHandler: progressHandler
        ))
    }

    /// A responder that runs this responder's handler, then `other`'s, for every event: what
    /// ``append(_:)`` makes.
    func combined(with other: NetworkResponder) -> NetworkResponder {
        var combined = NetworkResponder(
            taskHandler: Self.combined(onTask, other.onTask),
            responseHandler: Self.combined(onResponse, other.onResponse),
            httpResponseHandler: Self.combined(onHTTPResponse, other.onHTTPResponse),
            dataHandler: { [first = dataHandler] in first($0); other.dataHandler($0) },
            errorHandler: { [first = errorHandler] in first($0); other.errorHandler($0) },
            serverErrorHandler: { [first = serverErrorHandler] in first($0); other.serverErrorHandler($0) },
            errorDataHandler: { [first = errorDataHandler] in first($0); other.errorDataHandler($0) },
            progressHandler: Self.combined(progressHandler, other.progressHandler)
        )
        combined.metricsHandler = Self.combined(metricsHandler, other.metricsHandler)
        combined.usesServerDecoder = usesServerDecoder || other.usesServerDecoder
        return combined
    }

    private static func combined<Argument>(
        _ first: (@Sendable (Argument) -> Void)?,
        _ second: (@Sendable (Argument) -> Void)?
    ) -> (@Sendable (Argument) -> Void)? {
        guard let first else { return second }
        guard let second else { return first }
        return { first($0); second($0) }
    }
}

extension NetworkResponder {
    /// Every handler a responder holds.
    struct Handlers: Sendable {
        var onTask: (@Sendable (NetworkTask) -> Void)?
        var onResponse: (@Sendable (URLResponse?) -> Void)?
        var onHTTPResponse: (@Sendable (HTTPURLResponse) -> Void)?
        var dataHandler: @Sendable (Data) -> Void
        var errorHandler: @Sendable (NetworkError) -> Void
        var serverErrorHandler: @Sendable (NetworkError) -> Void
        var errorDataHandler: @Sendable (Data?) -> Void
        var progressHandler: (@Sendable (TransferProgress) -> Void)?
        var metricsHandler: (@Sendable ([AttemptMetrics]) -> Void)?
        var usesServerDecoder = false
    }

    /// The handlers behind one reference; immutable, so it is `Sendable` without a lock.
    final class Box: Sendable {
        let handlers: Handlers

        init(_ handlers: Handlers) {
            self.handlers = handlers
        }
    }
}

extension NetworkResponder {
    /// Hands one outcome to the handlers in the documented order, with the call's `decoder` bound
    /// for decoding handlers that use it: the one dispatch path that production, mock and replay
    /// firing all share.
    func dispatch(_ outcome: NetworkTask.Outcome, decoder: JSONDecoder) {
        if usesServerDecoder {
            ResponderDispatch.$serverDecoder.withValue(decoder) { dispatch(outcome) }
        } else {
            dispatch(outcome)
        }
    }

    /// Hands one outcome to the handlers in the documented order; the outcome was classified
    /// where it was made, so this reads its ``NetworkTask/Outcome/failure`` as it is.
    private func dispatch(_ outcome: NetworkTask.Outcome) {
        // Read through the one reference: no copy of the handlers per firing.
        let handlers = box
        if let onResponse = handlers.handlers.onResponse, outcome.failure?.isUnsent != true {
            onResponse(outcome.head?.urlResponse)
        }
        if let onHTTPResponse = handlers.handlers.onHTTPResponse, let http = outcome.head?.httpURLResponse {
            onHTTPResponse(http)
        }
        if let metricsHandler = handlers.handlers.metricsHandler, !outcome.metrics.isEmpty {
            metricsHandler(outcome.metrics)
        }
        guard let failure = outcome.failure else {
            handlers.handlers.dataHandler(outcome.data ?? Data())
            return
        }
        if failure.statusCode != nil {
            handlers.handlers.errorDataHandler(outcome.data)
            handlers.handlers.serverErrorHandler(failure)
        } else {
            handlers.handlers.errorHandler(failure)
            handlers.handlers.errorDataHandler(outcome.data)
        }
    }
}
