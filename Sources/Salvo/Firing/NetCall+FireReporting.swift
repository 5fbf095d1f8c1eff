import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// Fires this call through its firing function with a responder that reports one `Result`
    /// on whatever thread the outcome arrives (the call's own responder and queue are not used).
    ///
    /// The async API, the pager and ``Transfer`` (which passes `progress`) use it;
    /// `fire { result in … }` appends the same adapter instead.
    func fire(
        reporting completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> NetworkTask {
        var call = self
        call.callbackQueue = .immediate
        call.responder = .reporting(completion)
        call.responder.progressHandler = progress
        return call.fire()
    }
}

extension NetworkResponder {
    /// A responder that folds one firing's handlers into one `Result`: the body with its response,
    /// or the error (transport, cancellation, invalid request, refused or failed status).
    static func reporting(_ completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkResponder {
        // Each handler captures only `report`: a closure whose context is one object needs no
        // context of its own, where capturing `completion` cost an allocation per handler.
        let report = ResultReport(completion)
        var responder = NetworkResponder(
            dataHandler: { data in report.succeed(with: data) },
            errorHandler: { report.fail(with: $0) },
            serverErrorHandler: { report.fail(with: $0) }
        )
        responder.headHandler = { head in report.keep(head) }
        responder.metricsHandler = { metrics in report.keep(metrics) }
        return responder
    }
}

/// What ``NetworkResponder/reporting(_:)`` folds the handlers of one firing into.
private final class ResultReport: Sendable {
    private let completion: @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    /// The response head and the attempts' metrics, kept for the data handler: their handlers
    /// always run before it.
    private let kept = Locked<(head: ResponseHead?, metrics: [AttemptMetrics])>((nil, []))

    init(_ completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) {
        self.completion = completion
    }

    func keep(_ head: ResponseHead?) {
        kept.withLock { $0.head = head }
    }

    func keep(_ metrics: [AttemptMetrics]) {
        kept.withLock { $0.metrics = metrics }
    }

    func succeed(with data: Data) {
        let (head, metrics) = kept.withLock { $0 }
        completion(.success(NetworkResponse(data: data, head: head, metrics: metrics)))
    }

    func fail(with error: NetworkError) {
        completion(.failure(error))
    }
}
