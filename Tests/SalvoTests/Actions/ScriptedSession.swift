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


/// A one-shot event a test can await (bounded), fired from any thread.
final class Signal: Sendable {
    private let state = Locked<(isFired: Bool, waiters: [UUID: CheckedContinuation<Void, Never>])>((false, [:]))

    func fire() {
        let waiters = state.withLock { state in
            state.isFired = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        waiters.values.forEach { $0.resume() }
    }

    var isFired: Bool { state.withLock { $0.isFired } }

    /// Returns once fired; throws ``TimedOut`` after `seconds`.
    func wait(seconds: Double = 10) async throws {
        try await withTimeout(seconds) {
            let id = UUID()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = self.state.withLock { state in
                        if state.isFired || Task.isCancelled { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
            try Task.checkCancellation()
        }
    }
}
