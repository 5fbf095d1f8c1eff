import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Salvo

/// One exchange through AsyncHTTPClient: the request, each redirect it follows (a hop, one
/// AsyncHTTPClient task each), the idle timeout, cancellation, and the one end it reports.
///
/// Every hop runs on one event loop, chosen when the exchange starts. The state is behind a lock
/// all the same: ``cancel()`` comes from any thread, and the session's ``IdleWatch`` checks the
/// timeout from its own event loop.
final class Exchange: NetworkSessionTask {
    private struct State {
        /// The request of the current hop.
        var request: URLRequest
        var redirectCount = 0
        var hop: HTTPClient.Task<Void>?
        /// The current hop's events: how often AsyncHTTPClient visited a URL for it, the bytes it
        /// sent, and the request its head redirected to. Kept here rather than in the hop's
        /// delegate, under the exchange's lock: one lock per exchange, not one more per hop.
        var hopVisits = 0
        var hopBytesSent: Int64 = 0
        var hopRedirect: URLRequest?
        var lastActivity: NIODeadline
        /// Why the exchange ends although its hop did not fail by itself: a timeout, a redirect
        /// Salvo's rules refuse, a client that follows redirects on its own.
        var failure: (any Error)?
        var isCancelled = false
        var isFinished = false
    }

    private let session: AsyncHTTPClientSession
    private let delivery: Delivery
    private let eventLoop: any EventLoop
    private let idleTimeout: TimeAmount?
    /// Whether the request as fired carried a `Cookie` header of the caller's own, which stored
    /// cookies never replace.
    private let hasCallersCookieHeader: Bool
    /// The receiver's ``ResponseReceiver/credentialHeaders``: headers of the call's auth actions,
    /// dropped with the standard credentials when a redirect leaves the origin.
    private let credentialHeaders: Set<String>
    private let state: NIOLockedValueBox<State>

    private init(_ request: URLRequest, session: AsyncHTTPClientSession, receiver: any ResponseReceiver) {
        self.session = session
        delivery = Delivery(receiver)
        eventLoop = session.client.eventLoopGroup.any()
        idleTimeout = IdleTimeout.amount(for: request.timeoutInterval)
        hasCallersCookieHeader = request.value(forHTTPHeaderField: "Cookie") != nil
        credentialHeaders = receiver.credentialHeaders
        state = NIOLockedValueBox(State(request: request, lastActivity: .now()))
    }

    /// Starts sending `request` through `session`'s client and reports the exchange to `receiver`.
    static func start(_ request: URLRequest, on session: AsyncHTTPClientSession, reportingTo receiver: any ResponseReceiver) -> Exchange {
        let exchange = Exchange(request, session: session, receiver: receiver)
        if let idleTimeout = exchange.idleTimeout {
            session.idleWatch.watch(exchange, expiringAt: exchange.state.withLockedValue { $0.lastActivity } + idleTimeout)
        }
        exchange.send(exchange.withStoredCookies(request))
        return exchange
    }

    func cancel() {
        let hop: HTTPClient.Task<Void>? = state.withLockedValue { state in
            guard !state.isFinished else { return nil }
            state.isCancelled = true
            return state.hop
        }
        // Between hops there is no task to stop: the next hop sees the flag and ends the exchange.
        hop?.cancel()
    }

    /// Sends one hop: the request, or a redirected one.
    private func send(_ request: URLRequest) {
        let ahcRequest: HTTPClient.Request
        do {
            ahcRequest = try request.asyncHTTPClientRequest(uploadingOn: eventLoop)
        } catch {
            finish(TransportError.map(error, url: request.url))
            return
        }
        let delegate = HopDelegate(request: request, expectedUpload: ahcRequest.body?.contentLength, exchange: self)
        let isCancelled = state.withLockedValue { state in
            state.request = request
            state.hopVisits = 0
            state.hopBytesSent = 0
            state.hopRedirect = nil
            return state.isCancelled
        }
        guard !isCancelled else {
            finish(URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]))
            return
        }
        let hop = session.client.execute(request: ahcRequest, delegate: delegate, eventLoop: .delegate(on: eventLoop), logger: nil)
        let cancelledMeanwhile = state.withLockedValue { state in
            state.hop = hop
            return state.isCancelled
        }
        if cancelledMeanwhile { hop.cancel() }
        hop.futureResult.whenComplete { [self] result in
            hopEnded(result, following: state.withLockedValue { $0.hopRedirect })
        }
    }

    /// Ends a hop: follows the redirect it answered with, or ends the exchange.
    private func hopEnded(_ result: Result<Void, any Error>, following redirect: URLRequest?) {
        switch result {
        case .success:
            guard let redirect else { return finish(nil) }
            send(redirect)
        case .failure(let error):
            let (failure, isCancelled, url) = state.withLockedValue { ($0.failure, $0.isCancelled, $0.request.url) }
            if let failure { return finish(failure) }
            if isCancelled { return finish(URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])) }
            // Nobody here cancelled it: the client was shut down while the hop was in flight.
            if let clientError = error as? HTTPClientError, clientError == .cancelled { return finish(TransportError.shutDown(at: url)) }
            finish(TransportError.map(error, url: url))
        }
    }

    /// Reports the end once: to the receiver, after everything reported before it.
    private func finish(_ error: (any Error)?) {
        let isFirstEnd = state.withLockedValue { state in
            guard !state.isFinished else { return false }
            state.isFinished = true
            state.hop = nil
            return true
        }
        guard isFirstEnd else { return }
        if idleTimeout != nil { session.idleWatch.unwatch(self) }
        delivery.finish(error)
    }

    /// Ends the exchange with `error` at once: stops the hop in flight, whose failure then ends it.
    func fail(with error: any Error, stopping hop: HTTPClient.Task<Void>) {
        state.withLockedValue { state in
            if state.failure == nil { state.failure = error }
        }
        hop.fail(reason: error)
    }

    // MARK: - Events of a hop (from HopDelegate, on the event loop)

    /// What a hop does with its response head.
    enum HeadDecision {
        /// The head is the answer: report it and the body that follows.
        case deliver(ResponseHead)
        /// The head redirects: drop its body and send the next request (``redirect``) once the hop ends.
        case follow
        /// The exchange ends with this error.
        case fail(any Error)
    }

    /// Decides on a hop's response head, after storing the cookies it sets.
    func decide(on head: HTTPResponseHead, of request: URLRequest) -> HeadDecision {
        guard let url = request.url else {
            return .fail(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]))
        }
        let response = ResponseHead(head, url: url)
        if let storage = session.cookieStorage, request.httpShouldHandleCookies {
            storage.store(setCookieFields: head.headers[canonicalForm: "Set-Cookie"].map(String.init), from: url)
        }
        let redirectCount = state.withLockedValue { $0.redirectCount }
        let next: URLRequest?
        do {
            next = try request.redirected(by: response, redirectCount: redirectCount, credentialHeaders: credentialHeaders)
        } catch {
            return .fail(error)
        }
        guard let next else { return .deliver(response) }
        let following = withStoredCookies(next)
        state.withLockedValue { state in
            state.redirectCount += 1
            state.hopRedirect = following
        }
        return .follow
    }

    /// Notes that a byte went out or came in, which restarts the idle timeout.
    func noteActivity() {
        guard idleTimeout != nil else { return }
        state.withLockedValue { $0.lastActivity = .now() }
    }

    /// Counts a visit of the current hop to a URL; returns how many there have been.
    func noteVisit() -> Int {
        state.withLockedValue { state in
            state.hopVisits += 1
            return state.hopVisits
        }
    }

    /// The request the current hop's head redirected to, once its head has arrived.
    var redirect: URLRequest? { state.withLockedValue { $0.hopRedirect } }

    /// Reports that the current hop sent `byteCount` more bytes of its body, out of `bytesExpected`.
    func didSend(_ byteCount: Int, of bytesExpected: Int64?) {
        let sent = state.withLockedValue { state in
            state.hopBytesSent += Int64(byteCount)
            if idleTimeout != nil { state.lastActivity = .now() }
            return state.hopBytesSent
        }
        delivery.didSend(sent, of: bytesExpected)
    }

    /// Reports the response head; the future completes once the receiver has it.
    func deliver(_ head: ResponseHead) -> EventLoopFuture<Void> {
        delivery.head(head, on: eventLoop)
    }

    /// Reports a body chunk; the future completes once the receiver has it, and AsyncHTTPClient
    /// reads no more of the body until then.
    func deliver(_ chunk: ByteBuffer) -> EventLoopFuture<Void> {
        delivery.chunk(chunk, on: eventLoop)
    }

    // MARK: - Timeout

    /// Ends the exchange if at `now` it has been idle for its whole timeout; otherwise returns when
    /// it could expire next. `nil` once it has ended (or when it has no timeout).
    func expireIfIdle(at now: NIODeadline) -> NIODeadline? {
        guard let idleTimeout else { return nil }
        enum Next { case ended, wait(until: NIODeadline), expire(HTTPClient.Task<Void>?, URL?) }
        let next: Next = state.withLockedValue { state in
            guard !state.isFinished else { return .ended }
            let deadline = state.lastActivity + idleTimeout
            guard deadline <= now else { return .wait(until: deadline) }
            return .expire(state.hop, state.request.url)
        }
        switch next {
        case .ended:
            return nil
        case .wait(let deadline):
            return deadline
        case .expire(let hop, let url):
            let timedOut = URLError(.timedOut, userInfo: [
                NSLocalizedDescriptionKey: "The request timed out.",
                NSURLErrorFailingURLErrorKey: url as Any,
            ])
            if let hop { fail(with: timedOut, stopping: hop) } else { finish(timedOut) }
            return nil
        }
    }

    // MARK: - Cookies

    /// `request` with the stored cookies for its URL, unless the caller wrote the `Cookie` header.
    private func withStoredCookies(_ request: URLRequest) -> URLRequest {
        guard let storage = session.cookieStorage, request.httpShouldHandleCookies, !hasCallersCookieHeader, let url = request.url else {
            return request
        }
        var withCookies = request
        withCookies.setValue(nil, forHTTPHeaderField: "Cookie")
        for (name, value) in HTTPCookie.requestHeaderFields(with: storage.cookies(for: url) ?? []) {
            withCookies.setValue(value, forHTTPHeaderField: name)
        }
        return withCookies
    }
}
