import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkResponder {
    /// Adds `other`'s handlers to this responder: for every event, this responder's handler runs
    /// first, then `other`'s. One line adds a concern to a call that already has handlers, so
    /// parsing, spinners and alerts can live apart.
    ///
    /// ```swift
    /// call.responder = parsing
    /// call.responder.append(spinner)
    /// call.responder.append(NetworkResponder(taskHandler: { _ in log("started") }))
    /// call.responder.append(.onMainActor(taskHandler: { _ in spinner.start() },
    ///                                    responseHandler: { _ in spinner.stop() }))
    /// ```
    public mutating func append(_ other: NetworkResponder) {
        self = combined(with: other)
    }

    /// A responder whose handlers are isolated to the main actor, so a `@MainActor` view model can
    /// attach its methods directly, without `MainActor.assumeIsolated`.
    ///
    /// On the default ``CallbackQueue/main`` each handler runs in place, in the documented order.
    /// On any other queue it is handed to the main queue, in order; handlers set without this
    /// factory keep running on the call's queue.
    ///
    /// ```swift
    /// @MainActor final class IssueViewModel {
    ///     func load(_ call: NetCall) {
    ///         var call = call
    ///         call.responder.append(.onMainActor(taskHandler: { _ in self.isLoading = true },
    ///                                            dataHandler: show))
    ///         call.fire()
    ///     }
    ///     func show(_ data: Data) { … }
    /// }
    /// ```
    public static func onMainActor(
        taskHandler: (@MainActor @Sendable (NetworkTask) -> Void)? = nil,
        responseHandler: (@MainActor @Sendable (URLResponse?) -> Void)? = nil,
        httpResponseHandler: (@MainActor @Sendable (HTTPURLResponse) -> Void)? = nil,
        dataHandler: (@MainActor @Sendable (Data) -> Void)? = nil,
        errorHandler: (@MainActor @Sendable (NetworkError) -> Void)? = nil,
        serverErrorHandler: (@MainActor @Sendable (NetworkError) -> Void)? = nil,
        errorDataHandler: (@MainActor @Sendable (Data?) -> Void)? = nil,
        progressHandler: (@MainActor @Sendable (TransferProgress) -> Void)? = nil
    ) -> NetworkResponder {
        NetworkResponder(
            taskHandler: taskHandler.map(mainActorHandler),
            responseHandler: responseHandler.map(mainActorHandler),
            httpResponseHandler: httpResponseHandler.map(mainActorHandler),
            dataHandler: onMainActorIfSet(dataHandler),
            errorHandler: onMainActorIfSet(errorHandler),
            serverErrorHandler: onMainActorIfSet(serverErrorHandler),
            errorDataHandler: onMainActorIfSet(errorDataHandler),
            progressHandler: progressHandler.map(mainActorHandler)
        )
    }

    private static func onMainActorIfSet<Argument: Sendable>(
        _ handler: (@MainActor @Sendable (Argument) -> Void)?
    ) -> @Sendable (Argument) -> Void {
        guard let handler else { return { _ in } }
        return mainActorHandler(handler)
    }
}

/// `handler` as a plain `@Sendable` closure: run in place when called on the main actor (the main
/// queue, where handlers run by default, on Linux too), otherwise handed to the main queue.
///
/// The main queue is serial and the main actor runs on it, so handlers handed over keep their order.
func mainActorHandler<Argument: Sendable>(_ handler: @escaping @MainActor @Sendable (Argument) -> Void) -> @Sendable (Argument) -> Void {
    { argument in runOnMainActor { handler(argument) } }
}
