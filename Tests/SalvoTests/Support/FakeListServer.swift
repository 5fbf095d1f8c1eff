import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// An in-process `NetworkSession` serving the same paged lists as the loopback server
/// (`/list/<key>/pages|offset|cursor|link`), with failures, held pages and request counts.
///
/// A held page is answered only by ``release()`` (or with `URLError(.cancelled)` when cancelled),
/// so tests wait for events, not for time.
final class FakeListServer: NetworkSession {
    struct Options: Sendable {
        var total = 95
        var failPage: Int?
        var failTimes = 1
        var holdPage: Int?
        /// 1-based numbers of requests (in arrival order) to hold or to fail, whatever page they ask for.
        var holdRequests: Set<Int> = []
        var failRequests: Set<Int> = []
        var nextHost: String?
        var relativeLinks = false
        /// Answer from a global queue, as URLSession does, instead of inline.
        var answersOnAnotherThread = false
    }

    private struct State {
        var requests: [URLRequest] = []
        var failuresServed = 0
        var held: [(URLRequest, ScriptedSessionTask, Int)] = []
    }

    private let options: Options
    private let state = Locked(State())

    init(_ options: Options = Options()) {
        self.options = options
    }

    /// Production-style firing through this session.
    var firing: FiringFunction { .session(self) }

    /// Firing whose tasks ignore cancellation: a held answer still reaches the responder after the
    /// caller cancelled, as a careless custom firing function might deliver it.
    var firingIgnoringCancellation: FiringFunction {
        FiringFunction { call, channel in
            // The caller cancels a task that leads nowhere; the answer goes through another.
            let task = NetworkTask(reportingTo: .result { _ in }, decoder: call.server.decoder, clock: .live)
            let answering = NetworkTask(reportingTo: channel, decoder: call.server.decoder, clock: .live)
            guard let request = try? call.urlRequest() else { return task }
            _ = self.start(request) { data, response, error in
                answering.finish(with: AttemptOutcome(request: request, urlResponse: response, data: data, error: error.map(NetworkError.init)))
            }
            return task
        }
    }

    /// Every request received, in order.
    var requests: [URLRequest] { state.withLock { $0.requests } }

    /// How many requests asked for `page` (1-based position, as the loopback server counts).
    func requestCount(forPage page: Int) -> Int {
        requests.filter { Self.position(of: $0) == page }.count
    }

    /// How many requests are held and not yet answered.
    var heldCount: Int { state.withLock { $0.held.count } }

    /// Answers every held request.
    func release() {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for (request, task, number) in held { answer(request, number: number, on: task) }
    }

    func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let task = ScriptedSessionTask(completion: completion)
        let page = Self.position(of: request)
        let (isHeld, number) = state.withLock { state in
            state.requests.append(request)
            let number = state.requests.count
            guard page == options.holdPage || options.holdRequests.contains(number) else { return (false, number) }
            state.held.append((request, task, number))
            return (true, number)
        }
        if !isHeld {
            if options.answersOnAnotherThread {
                DispatchQueue.global().async { self.answer(request, number: number, on: task) }
            } else {
                answer(request, number: number, on: task)
            }
        }
        return task
    }

    private func answer(_ request: URLRequest, number: Int, on task: ScriptedSessionTask) {
        guard let url = request.url else { return task.complete(nil, nil, URLError(.badURL)) }
        let page = Self.position(of: request)
        let shouldFail = options.failRequests.contains(number) || state.withLock { state in
            guard page == options.failPage, state.failuresServed < options.failTimes else { return false }
            state.failuresServed += 1
            return true
        }
        if shouldFail {
            return task.complete(Data(#"{"error":"status 500"}"#.utf8), Self.response(url, status: 500), nil)
        }
        let (body, headers) = ListResponder(options: options, url: url).respond()
        task.complete(body, Self.response(url, status: 200, headers: headers), nil)
    }

    private static func response(_ url: URL, status: Int, headers: [String: String] = [:]) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    /// The 1-based page position a request asks for, as the loopback server numbers pages.
    static func position(of request: URLRequest) -> Int {
        guard let url = request.url else { return 0 }
        let query = ListResponder.query(of: url)
        switch url.lastPathComponent {
        case "pages":
            let first = Int(query["first"] ?? "1") ?? 1
            return (Int(query["page"] ?? "") ?? first) - first + 1
        case "offset":
            return (Int(query["offset"] ?? "0") ?? 0) / (Int(query["limit"] ?? "10") ?? 10) + 1
        case "cursor":
            return (query["cursor"].flatMap(ListResponder.offset(fromCursor:)) ?? 0) / (Int(query["limit"] ?? "10") ?? 10) + 1
        default:
            return Int(query["page"] ?? "1") ?? 1
        }
    }
}
