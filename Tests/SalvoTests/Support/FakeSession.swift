import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo

/// A `NetworkSession` that records requests and answers each with a scripted reply.
final class FakeSession: NetworkSession {
    enum Reply: Sendable {
        case http(status: Int, headers: [String: String] = [:], body: Data = Data())
        case failure(URLError.Code)
        /// Never answers until cancelled, then answers `URLError(.cancelled)` as URLSession does.
        case hang
    }

    private let replies: @Sendable (URLRequest) -> Reply
    private let recorded = Locked<[URLRequest]>([])

    init(_ replies: @escaping @Sendable (URLRequest) -> Reply) {
        self.replies = replies
    }

    convenience init(_ reply: Reply) {
        self.init { _ in reply }
    }

    var requests: [URLRequest] { recorded.withLock { $0 } }

    func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        recorded.withLock { $0.append(request) }
        let task = FakeTask(completion: completion)
        switch replies(request) {
        case .http(let status, let headers, let body):
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            task.complete(body, response, nil)
        case .failure(let code):
            task.complete(nil, nil, URLError(code))
        case .hang:
            break
        }
        return task
    }
}

/// Completes at most once; cancelling an unfinished task completes it with `URLError(.cancelled)`.
final class FakeTask: NetworkSessionTask {
    private let completion: Locked<(@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?>

    init(completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        self.completion = Locked(completion)
    }

    func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let pending = completion.withLock { value in
            defer { value = nil }
            return value
        }
        pending?(data, response, error)
    }

    func cancel() {
        complete(nil, nil, URLError(.cancelled))
    }
}
