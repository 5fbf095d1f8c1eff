import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkResponder {
    /// A responder that folds one firing's handlers into one `Result`: the body with its response,
    /// or the error (transport, cancellation, invalid request, refused or failed status).
    static func reporting(_ completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkResponder {
        // The response handler always runs before the data handler of the same firing.
        let response = Locked<URLResponse?>(nil)
        return NetworkResponder(
            responseHandler: { value in response.withLock { $0 = value } },
            dataHandler: { data in completion(.success(NetworkResponse(data: data, response: response.withLock { $0 }))) },
            errorHandler: { completion(.failure($0)) },
            serverErrorHandler: { completion(.failure($0)) }
        )
    }
}
