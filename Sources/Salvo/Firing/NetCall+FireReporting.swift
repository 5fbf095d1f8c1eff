import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// Fires this call through its firing function with a responder that reports one `Result`
    /// on whatever thread the outcome arrives (the call's own responder and queue are not used).
    ///
    /// The async API and the pager use it; `fire { result in … }` appends the same adapter instead.
    func fire(reporting completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkTask {
        var call = self
        call.callbackQueue = .immediate
        call.responder = .reporting(completion)
        return call.fire()
    }
}
