import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// An experiment for Docs/Performance.md (benchmark 5): a `NetworkSession` over
/// `URLSession.data(for:)` instead of a completion-handler data task.
///
/// On Linux a data task's completion handler runs on the session's delegate `OperationQueue`,
/// one more thread hop per request than `data(for:)`, whose continuation FoundationNetworking
/// resumes inline (through an internal flag no caller can set). `SALVO_BENCH_ASYNC_DATA=1
/// salvo-bench-ratios --only "5 HTTP"` fires Salvo through this session to measure what removing
/// that hop would give. It is an experiment only: on Linux, cancelling the Swift task that runs
/// `data(for:)` while its response completes can deadlock (the cancellation handler waits for the
/// session's work queue while holding the task's status lock, which the completing response needs
/// to resume it), so Salvo's production firing keeps the completion-handler data task.
public struct AsyncDataSession: NetworkSession {
    let session: URLSession

    /// A session sending through `session`.
    public init(_ session: URLSession) {
        self.session = session
    }

    /// Sends `request` from a new task; cancelling the task cancels the request.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let task = Task {
            do {
                let (data, response) = try await session.data(for: request)
                completion(data, response, nil)
            } catch {
                completion(nil, nil, error)
            }
        }
        return TaskBox(task: task)
    }
}

private struct TaskBox: NetworkSessionTask {
    let task: Task<Void, Never>
    func cancel() { task.cancel() }
}
