import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo

/// A `NetworkSession` that streams: it plays one scripted exchange per request through
/// `start(_:receiver:)` — head, chunks, end — and records the requests and cancellations.
///
/// ```swift
/// let session = ScriptedStreamSession { attempt, _ in
///     attempt == 0 ? .events("id: 1\ndata: a\n\n") : [.head(status: 204)]
/// }
/// var call = NetCall(server: server, endpoint: .get("/feed"), firingFunction: .session(session))
/// ```
///
/// Steps before a ``Step/hang`` are reported at once, on the caller's thread.
final class ScriptedStreamSession: NetworkSession {
    /// One thing the server does.
    enum Step: Sendable {
        /// The response head.
        case head(status: Int, headers: [String: String] = [:])
        /// A chunk of the body.
        case chunk(Data)
        /// The body ends cleanly.
        case end
        /// The exchange fails with a transport error.
        case fail(URLError.Code)
        /// Nothing more until the task is cancelled, which ends the exchange with `URLError(.cancelled)`.
        case hang

        /// A chunk of UTF-8 text.
        static func text(_ text: String) -> Step { .chunk(Data(text.utf8)) }
    }

    private let script: @Sendable (_ attempt: Int, URLRequest) -> [Step]
    private let state = Locked<(requests: [URLRequest], cancellations: Int)>(([], 0))

    /// A session answering the request numbered `attempt` (from 0) with `script(attempt, request)`.
    init(_ script: @escaping @Sendable (_ attempt: Int, URLRequest) -> [Step]) {
        self.script = script
    }

    /// A session answering request `i` with `exchanges[i]`, and any later one with a hang.
    convenience init(_ exchanges: [[Step]]) {
        self.init { attempt, _ in attempt < exchanges.count ? exchanges[attempt] : [.hang] }
    }

    /// The requests started, in order.
    var requests: [URLRequest] { state.withLock { $0.requests } }

    /// How many started exchanges were cancelled before they ended.
    var cancellations: Int { state.withLock { $0.cancellations } }

    func start(_ request: URLRequest, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        let attempt = state.withLock { state in
            state.requests.append(request)
            return state.requests.count - 1
        }
        let task = ScriptedTask(receiver: receiver) { [state] in state.withLock { $0.cancellations += 1 } }
        for step in script(attempt, request) {
            switch step {
            case .head(let status, let headers):
                let url = request.url ?? URL(fileURLWithPath: "/")
                if let head = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) {
                    receiver.receive(head)
                }
            case .chunk(let data):
                receiver.receive(data)
            case .end:
                task.end(nil)
                return task
            case .fail(let code):
                task.end(URLError(code))
                return task
            case .hang:
                return task
            }
        }
        task.end(nil)
        return task
    }
}

extension ScriptedStreamSession.Step {
    /// A 200 `text/event-stream` head.
    static let eventStreamHead = Self.head(status: 200, headers: ["Content-Type": "text/event-stream; charset=utf-8"])
}

extension Array where Element == ScriptedStreamSession.Step {
    /// A whole event stream: a 200 `text/event-stream` head, `body` in one chunk, a clean end.
    static func events(_ body: String) -> [ScriptedStreamSession.Step] {
        [.eventStreamHead, .text(body), .end]
    }
}

/// Ends its exchange at most once; cancelling an unfinished one ends it with `URLError(.cancelled)`.
private final class ScriptedTask: NetworkSessionTask {
    private let receiver: Locked<(any ResponseReceiver)?>
    private let onCancel: @Sendable () -> Void

    init(receiver: any ResponseReceiver, onCancel: @escaping @Sendable () -> Void) {
        self.receiver = Locked(receiver)
        self.onCancel = onCancel
    }

    func end(_ error: (any Error)?) {
        let pending = receiver.withLock { receiver in
            defer { receiver = nil }
            return receiver
        }
        pending?.finish(error)
    }

    func cancel() {
        let isOpen = receiver.withLock { $0 != nil }
        guard isOpen else { return }
        onCancel()
        end(URLError(.cancelled))
    }
}
