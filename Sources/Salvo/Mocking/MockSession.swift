import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``NetworkSession`` that answers every request from code, never touching the network.
///
/// Fire through it with ``FiringFunction/session(_:)`` (the `.mock(...)` firing functions do), so
/// mock answers take the same path as production ones: actions, status validation, error
/// mapping, handler order and async/await all behave identically.
///
/// ```swift
/// let session = MockSession(conditions: .slow(seed: 1)) { request in
///     request.method == .get ? .json(users) : .status(405)
/// }
/// call.firingFunction = .session(session)
/// ```
public struct MockSession: NetworkSession {
    private let answer: @Sendable (MockRequest) -> MockResponse
    private let conditions: NetworkConditions
    private let clock: NetworkClock
    private let generator: Locked<SplitMix64>
    private let responses = MockResponseMemo()
    /// No latency and no failures: every draw would be "at once, succeeds", so none is made.
    private let isPerfectNetwork: Bool

    /// A session answering each request with `answer`, under `conditions`.
    ///
    /// - Parameters:
    ///   - conditions: simulated latency and failures; the generator is seeded once per session,
    ///     so firing the same requests in the same order repeats the same delays and failures.
    ///   - clock: what waits out the latency; ``NetworkClock/live`` by default.
    ///   - answer: the canned answer for a request.
    public init(
        conditions: NetworkConditions = .ideal,
        clock: NetworkClock = .live,
        answer: @escaping @Sendable (MockRequest) -> MockResponse
    ) {
        self.answer = answer
        self.conditions = conditions
        self.clock = clock
        self.generator = Locked(SplitMix64(seed: conditions.seed))
        self.isPerfectNetwork = NetworkConditions.clampedDelay(conditions.latency.upperBound) == 0 && !(conditions.failureRate > 0)
    }

    /// Answers `request`, at once when there is no delay, otherwise after it without blocking a thread.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        start(request, answering: answer(MockRequest(request)), completion: completion)
    }

    /// Answers `request` with `response` (worked out by the caller) under this session's
    /// conditions; redirects it answers with are followed through the session's own answer.
    func start(
        _ request: URLRequest,
        answering response: MockResponse,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let draw = isPerfectNetwork
            ? NetworkConditions.Draw(delay: 0, fails: false)
            : generator.withLock { conditions.draw(using: &$0) }
        let response = response.next()
        let failure = draw.fails ? URLError(conditions.failure) : nil
        let delay = NetworkConditions.clampedDelay(response.latency + draw.delay)
        let responses = responses, answer = answer
        @Sendable func resolved() -> (Data?, URLResponse?, (any Error)?) {
            if let failure { return (nil, nil, failure) }
            return Self.follow(request, answeredBy: response, answer: answer, reusing: responses)
        }
        guard delay > 0 else {
            // Answered before returning, so there is nothing left to cancel: no task to track.
            let (data, urlResponse, error) = resolved()
            completion(data, urlResponse, error)
            return AnsweredMockTask.shared
        }
        let task = MockSessionTask(completion: completion)
        task.schedule(after: delay, on: clock) {
            let (data, urlResponse, error) = resolved()
            task.complete(data, urlResponse, error)
        }
        return task
    }
}

extension MockSession {
    /// What `response` resolves to for `request`, following redirects through `answer` as
    /// production does (``MockRedirect``); a `HEAD` request gets no body.
    private static func follow(
        _ request: URLRequest,
        answeredBy response: MockResponse,
        answer: @Sendable (MockRequest) -> MockResponse,
        reusing memo: MockResponseMemo
    ) -> (Data?, URLResponse?, (any Error)?) {
        var current = request, response = response, hops = 0
        while true {
            let (data, urlResponse, error) = response.resolve(for: current, reusing: memo)
            guard error == nil, let http = urlResponse as? HTTPURLResponse else { return (data, urlResponse, error) }
            guard let next = MockRedirect.request(after: current, response: http) else {
                return (isHead(current) ? Data() : data, urlResponse, nil)
            }
            hops += 1
            guard hops <= RedirectGuard.maximumRedirects else { return (nil, nil, RedirectGuard.tooManyRedirects(at: next.url)) }
            current = next
            response = answer(MockRequest(next)).next()
        }
    }

    /// Whether `request` is a `HEAD`; without allocating for the common methods.
    private static func isHead(_ request: URLRequest) -> Bool {
        guard let method = request.httpMethod, method.utf8.count == 4 else { return false }
        return method == "HEAD" || method.uppercased() == "HEAD"
    }
}

/// The task of a mock answer given at once: it has already completed, so cancelling does nothing.
private final class AnsweredMockTask: NetworkSessionTask {
    static let shared = AnsweredMockTask()

    func cancel() {}
}

/// A mock answer in flight: completes exactly once, either with the answer or, when cancelled
/// first, at once with `URLError(.cancelled)`.
final class MockSessionTask: NetworkSessionTask {
    private typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    private let state: Locked<(completion: Completion?, timer: Task<Void, Never>?)>

    init(completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        state = Locked((completion, nil))
    }

    /// Runs `work` after `seconds` on `clock`; cancelling drops the timer.
    func schedule(after seconds: TimeInterval, on clock: NetworkClock, _ work: @escaping @Sendable () -> Void) {
        let timer = Task {
            guard (try? await clock.sleep(for: seconds)) != nil else { return }
            work()
        }
        let isPending = state.withLock { state in
            state.timer = timer
            return state.completion != nil
        }
        if !isPending { timer.cancel() }
    }

    /// Calls the completion unless it already ran.
    func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let completion = state.withLock { state in
            defer { state = (nil, nil) }
            return state.completion
        }
        completion?(data, response, error)
    }

    /// Stops the timer and completes with `URLError(.cancelled)` now.
    func cancel() {
        let timer = state.withLock { $0.timer }
        timer?.cancel()
        complete(nil, nil, URLError(.cancelled))
    }
}
