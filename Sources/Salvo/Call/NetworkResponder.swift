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
        set { onTask = newValue }
    }
    /// Receives the response, or `nil` when the call failed before one arrived.
    ///
    /// Unset (the default), no Foundation response is made for it: a transport that parses HTTP
    /// itself reports a ``ResponseHead``, and its `URLResponse` is made only when somebody reads it.
    public var responseHandler: @Sendable (URLResponse?) -> Void {
        get { onResponse ?? { _ in } }
        set { onResponse = newValue }
    }
    /// Receives the HTTP response whatever its status; unset, as cheap as ``responseHandler``.
    public var httpResponseHandler: @Sendable (HTTPURLResponse) -> Void {
        get { onHTTPResponse ?? { _ in } }
        set { onHTTPResponse = newValue }
    }
    /// Receives the body of a successful (2xx) response; empty when there is none.
    public var dataHandler: @Sendable (Data) -> Void
    /// Receives transport failures, cancellation, invalid requests and action failures.
    public var errorHandler: @Sendable (NetworkError) -> Void
    /// Receives ``NetworkError/serverStatus(_:)`` for a status outside 200–299.
    public var serverErrorHandler: @Sendable (NetworkError) -> Void
    /// Receives the body that came with any failure, `nil` when there was none.
    public var errorDataHandler: @Sendable (Data?) -> Void
    /// Receives upload and download progress while the call runs, at most 10 times a second per
    /// direction, then 100% exactly once per direction on success, before `dataHandler`; `nil`
    /// (the default) costs nothing. See ``TransferProgress``.
    public var progressHandler: (@Sendable (TransferProgress) -> Void)?
    /// Receives what each attempt measured, in attempt order, when the call's server collects
    /// metrics (``ServerConfig/collectsMetrics``); never called otherwise. See ``AttemptMetrics``.
    public var metricsHandler: (@Sendable ([AttemptMetrics]) -> Void)?

    /// What ``taskHandler`` stores; `nil` while unset.
    private(set) var onTask: (@Sendable (NetworkTask) -> Void)?
    /// What ``responseHandler`` stores; `nil` while unset.
    private(set) var onResponse: (@Sendable (URLResponse?) -> Void)?
    /// What ``httpResponseHandler`` stores; `nil` while unset.
    private(set) var onHTTPResponse: (@Sendable (HTTPURLResponse) -> Void)?
    /// Whether a decoding handler (`decoding(_:decoder:then:)`
    /// without a decoder of its own) reads the call's ``ServerConfig/decoder`` during dispatch.
    @usableFromInline var usesServerDecoder = false

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
        onTask = taskHandler
        onResponse = responseHandler
        onHTTPResponse = httpResponseHandler
        self.dataHandler = dataHandler
        self.errorHandler = errorHandler
        self.serverErrorHandler = serverErrorHandler
        self.errorDataHandler = errorDataHandler
        self.progressHandler = progressHandler
    }

    /// A responder that runs this responder's handler, then `other`'s, for every event.
    public func combined(with other: NetworkResponder) -> NetworkResponder {
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
    /// Hands one outcome to the handlers in the documented order, with the call's `decoder` bound
    /// for decoding handlers that use it: the one dispatch path that production, mock and replay
    /// firing all share.
    func dispatch(_ outcome: AttemptOutcome, decoder: JSONDecoder) {
        if usesServerDecoder {
            ResponderDispatch.$serverDecoder.withValue(decoder) { dispatch(outcome) }
        } else {
            dispatch(outcome)
        }
    }

    /// Hands one outcome to the handlers in the documented order.
    private func dispatch(_ outcome: AttemptOutcome) {
        if let onResponse, outcome.error?.isUnsent != true {
            onResponse(outcome.urlResponse)
        }
        if let onHTTPResponse, let http = outcome.httpResponse {
            onHTTPResponse(http)
        }
        if let metricsHandler, !outcome.metrics.isEmpty {
            metricsHandler(outcome.metrics)
        }
        switch outcome.result {
        case .success(let data):
            dataHandler(data)
        case .failure(let error) where error.statusCode != nil:
            errorDataHandler(outcome.data)
            serverErrorHandler(error)
        case .failure(let error):
            errorHandler(error)
            errorDataHandler(outcome.data)
        }
    }
}
