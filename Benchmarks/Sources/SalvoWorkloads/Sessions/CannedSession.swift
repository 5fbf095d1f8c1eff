import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// A ``NetworkSession`` that answers every request at once with the same prebuilt response.
///
/// It costs almost nothing itself, so firing through it measures Salvo's pipeline alone: request
/// building, task bookkeeping, status validation and dispatch to the responder.
public struct CannedSession: NetworkSession {
    private let body: Data
    private let response: HTTPURLResponse?

    /// A session answering `status` with `body`.
    public init(status: Int = 200, body: Data) {
        self.body = body
        self.response = HTTPURLResponse(
            url: URL(fileURLWithPath: "/"), statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"]
        )
    }

    /// Answers `request` before returning.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        completion(body, response, nil)
        return FinishedTask.shared
    }
}

/// The task of an answer that was already given: cancelling it does nothing.
private final class FinishedTask: NetworkSessionTask {
    static let shared = FinishedTask()

    func cancel() {}
}
