import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession: NetworkSession {
    /// Starts a data task for `request` that reports to `receiver`.
    ///
    /// A whole body (`options.readsBodyAsItArrives` false) comes through a completion-handler
    /// task; a streamed one through a delegate task whose head and chunks reach `receiver` as
    /// they arrive. Redirects are followed by Salvo's rules on
    /// every platform (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`): a redirect to
    /// another scheme, host or port does not carry `Authorization`, `Cookie` or an auth action's
    /// header along, and one that keeps the method keeps the body; your session delegate still
    /// decides on each redirect. On Linux a 401 challenge completes and an explicit `Cookie` header
    /// is not replaced by stored cookies (see Docs/Linux.md).
    @_spi(Transport) public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        URLSessionExchange.start(request, on: self, options: options, reportingTo: receiver)
    }

    /// Starts a data task for `request` and calls `completion` with what came back, with the same
    /// redirect rules and Linux repairs as `start(_:options:receiver:)`.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        start(request, options: ExchangeOptions(), receiver: ExchangeCollector { completion($0.body, $0.head?.urlResponse, $0.error) })
    }
}
