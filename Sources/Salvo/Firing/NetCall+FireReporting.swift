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
