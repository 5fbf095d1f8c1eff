import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// Fires this call through its firing function with a responder that reports one `Result`
    /// on whatever thread the outcome arrives (the call's own responder and queue are not used).
    ///
    /// The one adapter from handlers to a result: the async API and the pager both use it.
    func fire(reporting completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkTask {
        var call = self
        let response = Locked<URLResponse?>(nil)
        call.callbackQueue = .immediate
        call.responder = NetworkResponder(
            responseHandler: { value in response.withLock { $0 = value } },
            dataHandler: { data in completion(.success(NetworkResponse(data: data, response: response.withLock { $0 }))) },
            errorHandler: { completion(.failure($0)) },
            serverErrorHandler: { completion(.failure($0)) }
        )
        return call.fire()
    }
}
