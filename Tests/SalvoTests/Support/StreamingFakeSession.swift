import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo

/// A `NetworkSession` that streams scripted answers through `start(_:receiver:)` on a queue of
/// its own, one event at a time, as a transport does; it records requests and cancellations.
final class StreamingFakeSession: NetworkSession {
    /// One scripted exchange.
    struct Script: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var chunks: [Data] = []
        /// The error the exchange ends with after its chunks; `nil` ends it normally.
        var failure: URLError.Code?
        /// Seconds between events, so a test can act in between.
        var interval: TimeInterval = 0

        static func ok(_ chunks: [String], headers: [String: String] = ["Content-Type": "text/plain"], then failure: URLError.Code? = nil, interval: TimeInterval = 0) -> Script {
            Script(status: 200, headers: headers, chunks: chunks.map { Data($0.utf8) }, failure: failure, interval: interval)
        }
    }

    private let script: @Sendable (URLRequest, Int) -> Script
    private let recorded = Locked<[URLRequest]>([])
    private let cancellations = Locked(0)
    private let queue = DispatchQueue(label: "StreamingFakeSession")

    /// Answers the n-th request (1-based) with `script(request, n)`.
    init(_ script: @escaping @Sendable (URLRequest, Int) -> Script) {
        self.script = script
    }

    /// Answers the n-th request with `scripts[n - 1]`, repeating the last one.
    convenience init(_ scripts: Script...) {
        self.init { _, n in scripts[min(n, scripts.count) - 1] }
    }

    var requests: [URLRequest] { recorded.withLock { $0 } }
    var cancelledCount: Int { cancellations.withLock { $0 } }

    func start(_ request: URLRequest, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        let number = recorded.withLock { $0.append(request); return $0.count }
        let answer = script(request, number)
        let task = Cancellable { [cancellations] in cancellations.withLock { $0 += 1 } }
        let url = request.url ?? URL(fileURLWithPath: "/")
        let head = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)
        queue.async {
            func pause() { if answer.interval > 0 { Thread.sleep(forTimeInterval: answer.interval) } }
            if let head { receiver.receive(head) }
            for chunk in answer.chunks {
                pause()
                if task.isCancelled { return receiver.finish(URLError(.cancelled)) }
                receiver.receive(chunk)
            }
            pause()
            if task.isCancelled { return receiver.finish(URLError(.cancelled)) }
            receiver.finish(answer.failure.map { URLError($0) })
        }
        return task
    }

    private final class Cancellable: NetworkSessionTask {
        private let cancelled = Locked(false)
        private let onCancel: @Sendable () -> Void

        init(onCancel: @escaping @Sendable () -> Void) {
            self.onCancel = onCancel
        }

        var isCancelled: Bool { cancelled.withLock { $0 } }

        func cancel() {
            let isFirst = cancelled.withLock { cancelled in
                defer { cancelled = true }
                return !cancelled
            }
            if isFirst { onCancel() }
        }
    }
}
