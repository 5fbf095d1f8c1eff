import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// A `NetworkSession` that records every request and answers each from a script: a status, a
/// transport failure, or no answer at all until the call is cancelled.
///
/// It answers through the completion-style `start(_:completion:)`, the way a session you write
/// yourself would, so a test sees what Salvo makes of a session's raw answers: handler order,
/// error mapping, retries and cancellation.
///
/// ```swift
/// let session = ScriptedSession(.hang)
/// call.firingFunction = session.firingFunction
/// let task = call.fire()
/// task.cancel()                                  // the call ends with `NetworkError.cancelled`
/// #expect(session.requests.count == 1)
/// ```
public final class ScriptedSession: NetworkSession {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// A response with this status, headers and body.
        case status(Int, headers: HTTPHeaders = [:], body: Data = Data())
        /// A transport failure with this code, and no response.
        case failure(URLError.Code)
        /// No answer until the call is cancelled, then `URLError(.cancelled)` as `URLSession` answers.
        case hang
    }

    private let script: @Sendable (URLRequest, Int) -> Reply
    private let recorded = Locked<[URLRequest]>([])

    /// A session answering the n-th request (counting from 1) with `script(request, n)`.
    public init(_ script: @escaping @Sendable (_ request: URLRequest, _ number: Int) -> Reply) {
        self.script = script
    }

    /// A session answering the n-th request with `replies[n - 1]`, and every request after the
    /// last reply with the last reply again.
    public convenience init(_ replies: Reply...) {
        precondition(!replies.isEmpty, "a ScriptedSession needs at least one reply")
        self.init { _, number in replies[min(number, replies.count) - 1] }
    }

    /// Every request that reached the session, in order.
    public var requests: [URLRequest] { recorded.withLock { $0 } }

    /// The firing function to put in `NetCall.firingFunction`: production firing through this session.
    public var firingFunction: FiringFunction { .session(self) }

    /// Records `request` and answers it from the script: at once, before returning, unless the
    /// reply is ``Reply/hang``.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let number = recorded.withLock { $0.append(request); return $0.count }
        let task = ScriptedSessionTask(completion: completion)
        switch script(request, number) {
        case .status(let status, let headers, let body):
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)
            task.complete(body, response, nil)
        case .failure(let code):
            task.complete(nil, nil, URLError(code))
        case .hang:
            break
        }
        return task
    }
}
