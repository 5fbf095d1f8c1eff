import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
#if canImport(Testing)
import Testing
#endif

/// A firing function that records every call fired through it, and answers with a mock response.
///
/// Answers go through the same pipeline as production firing (actions, status validation, handler
/// order), so the code under test sees what it would see from a server.
///
/// ```swift
/// let spy = FiringSpy(answering: .json(user))
/// var call = userCall
/// call.firingFunction = spy.firingFunction
/// try await model.load(using: call)
/// #expect(spy.calls.map(\.endpoint) == [.get("/users/42")])
/// ```
public final class FiringSpy: Sendable {
    /// What the spy recorded: the calls fired, the requests sent, and how many firings have
    /// settled (their request reached the session, or they ended without one), which is what a
    /// wait counts, so that a wait that returns finds every record it stands for.
    private struct Records {
        var calls: [FiredCall] = []
        var sent: [URLRequest] = []
        var settled = 0
    }

    private let state = Locked(Records())
    private let waiters = Waiters()
    private let answer: @Sendable (MockRequest) -> MockResponse

    /// A spy answering every call with `response` (an empty 200 by default).
    public convenience init(answering response: MockResponse = .status(200)) {
        self.init { _ in response }
    }

    /// A spy answering each call from `routes`.
    public convenience init(routes: MockRoutes) {
        self.init { routes.response(for: $0) }
    }

    /// A spy answering each call with what `answer` computes from the request.
    public init(answer: @escaping @Sendable (MockRequest) -> MockResponse) {
        self.answer = answer
    }

    /// The firing function to put in `NetCall.firingFunction`.
    public var firingFunction: FiringFunction {
        FiringFunction { call, channel in
            self.state.withLock { $0.calls.append(FiredCall(call: call, request: try? call.urlRequest())) }
            // The firing settles once, at the first of: its request reaching the session (after
            // the actions, which may take a while), or its end without a request.
            let settle = Once { self.settled() }
            let session = MockSession { request in
                self.state.withLock { $0.sent.append(request.request) }
                settle()
                return self.answer(request)
            }
            return FiringFunction.session(session)(call, channel.onFinish { _ in settle() })
        }
    }

    private func settled() {
        state.withLock { $0.settled += 1 }
        waiters.signal()
    }

    /// Every call fired, in order.
    public var calls: [FiredCall] { state.withLock { $0.calls } }

    /// The requests that reached the spy's session, after every action adapted them.
    public var sentRequests: [URLRequest] { state.withLock { $0.sent } }

    /// The last call fired, if any.
    public var lastCall: FiredCall? { calls.last }

    /// Forgets every recorded call and request.
    public func reset() {
        state.withLock { $0 = Records() }
    }

    /// Whether `count` firings have settled: each one's request is in ``sentRequests``, or it ended without one.
    private func hasSettled(_ count: Int) -> Bool {
        state.withLock { $0.settled >= count }
    }

    #if canImport(Testing)
    /// Waits until at least `count` calls were fired and each one's request reached the spy (it is
    /// then in ``sentRequests``) or its firing ended without one (an unbuildable call, an action
    /// that refused it), and returns the calls; records a test issue at the caller's line when
    /// `timeout` seconds pass first.
    public func waitForCalls(_ count: Int, timeout: TimeInterval = 30, sourceLocation: SourceLocation = #_sourceLocation) async -> [FiredCall] {
        if await !waiters.wait(timeout: timeout, until: { self.hasSettled(count) }) {
            Issue.record("expected \(count) fired calls within \(timeout) s, saw \(calls.count): \(calls)", sourceLocation: sourceLocation)
        }
        return calls
    }
    #else
    /// Waits until at least `count` calls were fired and each one's request reached the spy or
    /// its firing ended without one (or `timeout` seconds pass), and returns them.
    public func waitForCalls(_ count: Int, timeout: TimeInterval = 30) async -> [FiredCall] {
        _ = await waiters.wait(timeout: timeout, until: { self.hasSettled(count) })
        return calls
    }
    #endif
}

/// Runs its closure the first time it is called, and never again.
private final class Once: Sendable {
    private let action: Locked<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    func callAsFunction() {
        action.withLock { $0.take() }?()
    }
}
