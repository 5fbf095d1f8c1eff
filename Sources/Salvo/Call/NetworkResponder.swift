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
/// 4. then exactly one of:
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
    public var taskHandler: @Sendable (NetworkTask) -> Void
    /// Receives the response, or `nil` when the call failed before one arrived.
    public var responseHandler: @Sendable (URLResponse?) -> Void
    /// Receives the HTTP response whatever its status.
    public var httpResponseHandler: @Sendable (HTTPURLResponse) -> Void
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

    /// A responder whose handlers default to doing nothing.
    public init(
        taskHandler: @escaping @Sendable (NetworkTask) -> Void = { _ in },
        responseHandler: @escaping @Sendable (URLResponse?) -> Void = { _ in },
        httpResponseHandler: @escaping @Sendable (HTTPURLResponse) -> Void = { _ in },
        dataHandler: @escaping @Sendable (Data) -> Void = { _ in },
        errorHandler: @escaping @Sendable (NetworkError) -> Void = { _ in },
        serverErrorHandler: @escaping @Sendable (NetworkError) -> Void = { _ in },
        errorDataHandler: @escaping @Sendable (Data?) -> Void = { _ in },
        progressHandler: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.taskHandler = taskHandler
        self.responseHandler = responseHandler
        self.httpResponseHandler = httpResponseHandler
        self.dataHandler = dataHandler
        self.errorHandler = errorHandler
        self.serverErrorHandler = serverErrorHandler
        self.errorDataHandler = errorDataHandler
        self.progressHandler = progressHandler
    }

    /// A responder that runs this responder's handler, then `other`'s, for every event.
    public func combined(with other: NetworkResponder) -> NetworkResponder {
        NetworkResponder(
            taskHandler: { [first = taskHandler] in first($0); other.taskHandler($0) },
            responseHandler: { [first = responseHandler] in first($0); other.responseHandler($0) },
            httpResponseHandler: { [first = httpResponseHandler] in first($0); other.httpResponseHandler($0) },
            dataHandler: { [first = dataHandler] in first($0); other.dataHandler($0) },
            errorHandler: { [first = errorHandler] in first($0); other.errorHandler($0) },
            serverErrorHandler: { [first = serverErrorHandler] in first($0); other.serverErrorHandler($0) },
            errorDataHandler: { [first = errorDataHandler] in first($0); other.errorDataHandler($0) },
            progressHandler: Self.combined(progressHandler, other.progressHandler)
        )
    }

    private static func combined(
        _ first: (@Sendable (TransferProgress) -> Void)?,
        _ second: (@Sendable (TransferProgress) -> Void)?
    ) -> (@Sendable (TransferProgress) -> Void)? {
        guard let first else { return second }
        guard let second else { return first }
        return { first($0); second($0) }
    }
}
