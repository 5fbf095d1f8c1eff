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
        // The response handler always runs before the data handler of the same firing.
        let head = Locked<ResponseHead?>(nil)
        var responder = NetworkResponder(
            dataHandler: { data in completion(.success(NetworkResponse(data: data, head: head.withLock { $0 }))) },
            errorHandler: { completion(.failure($0)) },
            serverErrorHandler: { completion(.failure($0)) }
        )
        responder.headHandler = { value in head.withLock { $0 = value } }
        return responder
    }
}
