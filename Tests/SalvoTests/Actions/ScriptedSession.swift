import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

/// A `NetworkSession` for action unit tests: records every request and answers from a script.
final class ScriptedSession: NetworkSession {
    /// One scripted answer.
    enum Reply: Sendable {
        case status(Int, headers: [String: String] = [:], body: String = "")
        case failure(URLError.Code)
        /// Never answers until cancelled, then answers `URLError(.cancelled)` as URLSession does.
        case hang
    }

    private let script: @Sendable (URLRequest, Int) -> Reply
    private let recorded = Locked<[URLRequest]>([])

    /// Answers the n-th request (1-based) with `script(request, n)`.
    init(_ script: @escaping @Sendable (URLRequest, Int) -> Reply) {
        self.script = script
    }

    /// Answers the n-th request with `replies[n - 1]`, repeating the last one.
    convenience init(_ replies: Reply...) {
        self.init { _, n in replies[min(n, replies.count) - 1] }
    }

    var requests: [URLRequest] { recorded.withLock { $0 } }
    var count: Int { recorded.withLock { $0.count } }

    /// A firing function sending through this session.
    var firing: FiringFunction { .session(self) }

    func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let number = recorded.withLock { $0.append(request); return $0.count }
        let task = FakeTask(completion: completion)
        switch script(request, number) {
        case .status(let code, let headers, let body):
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: code, httpVersion: "HTTP/1.1", headerFields: headers)
            task.complete(Data(body.utf8), response, nil)
        case .failure(let code):
            task.complete(nil, nil, URLError(code))
        case .hang:
            break
        }
        return task
    }
}
