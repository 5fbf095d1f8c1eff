import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// The task a ``ScriptedSession`` returns, for sessions of your own that answer later: it calls
/// its completion at most once, and cancelling it before then answers `URLError(.cancelled)`, as a
/// `URLSession` task does.
///
/// ```swift
/// let task = ScriptedSessionTask(completion: completion)
/// held.append(task)                         // answered when the test decides
/// return task
/// ```
public final class ScriptedSessionTask: NetworkSessionTask {
    private let completion: Locked<(@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?>

    /// A task that will hand its answer to `completion`.
    public init(completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        self.completion = Locked(completion)
    }

    /// Answers with `data`, `response` and `error`, unless the task already answered.
    public func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let pending = completion.withLock { value in
            defer { value = nil }
            return value
        }
        pending?(data, response, error)
    }

    /// Answers `URLError(.cancelled)`, unless the task already answered.
    public func cancel() {
        complete(nil, nil, URLError(.cancelled))
    }
}
