import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// The operation a ``SalvoTransport`` is sending, known to the mock routes that answer it and never
/// to a server: it travels with the task that fires the call (a task-local value, as
/// swift-distributed-tracing's context does), not in the request.
///
/// It names the operation's method and path too, so that a request the operation's actions send
/// on their own (a token renewal) is not taken for the operation.
struct SentOperation: Sendable {
    /// The operation being sent, in the task that sends it.
    @TaskLocal static var current: SentOperation?

    /// The `operationId` of the document.
    let id: String
    private let method: String
    private let path: String?

    /// The operation `id`, sent as `call`.
    init(_ id: String, sentAs call: NetCall) {
        self.id = id
        method = call.endpoint.method.rawValue
        path = (try? call.urlRequest())?.url?.path
    }

    /// Whether `request` is this operation's request rather than another the call's actions sent.
    func isSending(_ request: URLRequest) -> Bool {
        request.httpMethod == method && request.url?.path == path
    }
}
