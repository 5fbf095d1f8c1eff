import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) @testable import Salvo

/// A `NetworkSession` that streams: it plays one scripted exchange per request through
/// `start(_:options:receiver:)` — head, chunks, end — and records the requests and cancellations.
///
/// ```swift
/// let session = ScriptedStreamSession { attempt, _ in
///     attempt == 0 ? .events("id: 1\ndata: a\n\n") : [.head(status: 204)]
/// }
/// var call = NetCall(server: server, endpoint: .get("/feed"), firingFunction: .session(session))
/// ```
///
/// Steps before the first ``Step/pause(_:)`` are reported at once, on the caller's thread; the
/// steps after it on the session's own queue, as a transport reports them
/// (`[Step].exchange(…)` plays a whole exchange that way).
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
        /// The next steps come `seconds` later on the session's queue (`0` only moves there).
        case pause(TimeInterval)

        /// A chunk of UTF-8 text.
        static func text(_ text: String) -> Step { .chunk(Data(text.utf8)) }
    }

    private let script: @Sendable (_ attempt: Int, URLRequest) -> [Step]
    private let state = Locked<(requests: [URLRequest], cancellations: Int)>(([], 0))
    private let queue = DispatchQueue(label: "ScriptedStreamSession")

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

    func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        let attempt = state.withLock { state in
            state.requests.append(request)
            return state.requests.count - 1
        }
        let task = ScriptedTask(receiver: receiver) { [state] in state.withLock { $0.cancellations += 1 } }
        play(script(attempt, request)[...], of: request, to: receiver, ending: task)
        return task
    }

    /// Reports `steps` until a pause, then the rest on the queue once the pause has passed.
    private func play(_ steps: ArraySlice<Step>, of request: URLRequest, to receiver: any ResponseReceiver, ending task: ScriptedTask) {
        for index in steps.indices {
            guard task.isOpen else { return }
            switch steps[index] {
            case .head(let status, let headers):
                let url = request.url ?? URL(fileURLWithPath: "/")
                if let head = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) {
                    receiver.receive(head)
                }
            case .chunk(let data):
                receiver.receive(data)
            case .end:
                return task.end(nil)
            case .fail(let code):
                return task.end(URLError(code))
            case .hang:
                return
            case .pause(let seconds):
                task.endsOn(queue)
                let rest = steps[(index + 1)...]
                queue.asyncAfter(deadline: .now() + seconds) { [self] in
                    play(rest, of: request, to: receiver, ending: task)
                }
                return
            }
        }
        task.end(nil)
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

    /// A whole exchange played on the session's queue, as a transport plays it: the head, each
    /// chunk `interval` seconds after the one before, then the end, or `failure` instead.
    static func exchange(
        status: Int = 200,
        headers: [String: String] = ["Content-Type": "text/plain"],
        _ chunks: [String] = [],
        then failure: URLError.Code? = nil,
        interval: TimeInterval = 0
    ) -> [ScriptedStreamSession.Step] {
        [.pause(0), .head(status: status, headers: headers)]
            + chunks.flatMap { [.pause(interval), .text($0)] }
            + [.pause(interval), failure.map { .fail($0) } ?? .end]
    }
}

/// Ends its exchange at most once; cancelling an unfinished one ends it with `URLError(.cancelled)`,
/// on the session's queue once the exchange plays there, so no two reports overlap.
private final class ScriptedTask: NetworkSessionTask {
    private let state: Locked<(receiver: (any ResponseReceiver)?, queue: DispatchQueue?)>
    private let onCancel: @Sendable () -> Void

    init(receiver: any ResponseReceiver, onCancel: @escaping @Sendable () -> Void) {
        self.state = Locked((receiver, nil))
        self.onCancel = onCancel
    }

    /// Whether the exchange has not ended yet.
    var isOpen: Bool { state.withLock { $0.receiver != nil } }

    /// From now on the exchange plays on `queue`.
    func endsOn(_ queue: DispatchQueue) {
        state.withLock { $0.queue = queue }
    }

    func end(_ error: (any Error)?) {
        let pending = state.withLock { state in
            defer { state.receiver = nil }
            return state.receiver
        }
        pending?.finish(error)
    }

    func cancel() {
        // Closed at once, so no later step is reported; finished on the queue after any report
        // under way there.
        let (pending, queue) = state.withLock { state in
            defer { state.receiver = nil }
            return (state.receiver, state.queue)
        }
        guard let pending else { return }
        onCancel()
        if let queue {
            queue.async { pending.finish(URLError(.cancelled)) }
        } else {
            pending.finish(URLError(.cancelled))
        }
    }
}
