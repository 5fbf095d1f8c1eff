import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
@_spi(Transport) import Salvo

/// One exchange through AsyncHTTPClient: the request and each redirect it follows (one
/// AsyncHTTPClient task each), the idle timeout, cancellation, and the one end it reports.
///
/// A body read whole is kept here, with its head, and reported with the end in one call
/// (`ResponseReceiver.finish(with:body:error:)`), as the `URLSession` transport reports a
/// completion handler's answer: the receiver takes the exchange in one step. A streamed body goes
/// to the receiver part by part through ``Delivery``.
///
/// The exchange is the delegate of each of its tasks, one after the other: a task starts only once
/// the one before it has ended, so one object serves them all.
/// Every task runs on one event loop, chosen when the exchange starts (``LoopAffinity``). The state is behind a lock
/// all the same: ``cancel()`` comes from any thread, and the session's ``IdleWatch`` checks the
/// timeout from its own event loop.
final class Exchange: NetworkSessionTask {
    private struct State {
        /// The request of the current task.
        var request: URLRequest
        var redirectCount = 0
        var task: HTTPClient.Task<Void>?
        /// The current task's events: how often AsyncHTTPClient visited a URL for it, the bytes of
        /// its body it sent out of how many, and the request its head redirected to.
        var visits = 0
        var bytesSent: Int64 = 0
        var bytesExpected: Int64?
        var redirect: URLRequest?
        var lastActivity: NIODeadline
        /// The answer of a body read whole, reported with the end.
        var head: ResponseHead?
        var body: Data?
        /// Why the exchange ends although its task did not fail by itself: a timeout, a redirect
        /// Salvo's rules refuse, a client that follows redirects on its own.
        var failure: (any Error)?
        var isCancelled = false
        var isFinished = false
    }

    private let session: AsyncHTTPClientSession
    private let receiver: any ResponseReceiver
    /// How a streamed body reaches the receiver; `nil` when the body is read whole.
    private let delivery: Delivery?
    /// The loop every task of the exchange runs its delegate on (``LoopAffinity``).
    private let eventLoop: any EventLoop
    /// The exchange's origin in the session's ``LoopAffinity``, told when the exchange ends.
    private let origin: LoopAffinity.Origin?
    private let idleTimeout: TimeAmount?
    /// Whether the request as fired carried a `Cookie` header of the caller's own, which stored
    /// cookies never replace.
    private let hasCallersCookieHeader: Bool
    /// The exchange's ``Salvo/ExchangeOptions/credentialHeaders``: headers of the call's auth actions,
    /// dropped with the standard credentials when a redirect leaves the origin.
    private let credentialHeaders: Set<String>
    private let state: NIOLockedValueBox<State>

    private init(_ request: URLRequest, session: AsyncHTTPClientSession, options: ExchangeOptions, receiver: any ResponseReceiver, startedAt start: NIODeadline) {
        self.session = session
        self.receiver = receiver
        delivery = options.readsBodyAsItArrives ? Delivery(receiver) : nil
        let pick = session.loopAffinity.start(request.url)
        eventLoop = pick.loop
        origin = pick.origin
        idleTimeout = IdleTimeout.amount(for: request.timeoutInterval)
        hasCallersCookieHeader = session.cookieStorage != nil && request.value(forHTTPHeaderField: "Cookie") != nil
        credentialHeaders = options.credentialHeaders
        state = NIOLockedValueBox(State(request: request, lastActivity: start))
    }

    /// Starts sending `request` through `session`'s client and reports the exchange to `receiver`.
    static func start(
        _ request: URLRequest,
        on session: AsyncHTTPClientSession,
        options: ExchangeOptions,
        reportingTo receiver: any ResponseReceiver
    ) -> Exchange {
        let start = NIODeadline.now()
        let exchange = Exchange(request, session: session, options: options, receiver: receiver, startedAt: start)
        if let idleTimeout = exchange.idleTimeout {
            session.idleWatch.watch(exchange, expiringAt: start + idleTimeout)
        }
        exchange.send(exchange.withStoredCookies(request))
        return exchange
    }

    func cancel() {
        let task: HTTPClient.Task<Void>? = state.withLockedValue { state in
            guard !state.isFinished else { return nil }
            state.isCancelled = true
            return state.task
        }
        // Between tasks there is none to stop: the next task sees the flag and ends the exchange.
        task?.cancel()
    }

    /// Sends one task: the request, or a redirected one.
    private func send(_ request: URLRequest) {
        let ahcRequest: HTTPClient.Request
        do {
            ahcRequest = try request.asyncHTTPClientRequest(uploadingOn: eventLoop)
        } catch {
            finish(TransportError.map(error, url: request.url))
            return
        }
        let isCancelled = state.withLockedValue { state in
            state.request = request
            state.visits = 0
            state.bytesSent = 0
            state.bytesExpected = ahcRequest.body?.contentLength
            state.redirect = nil
            return state.isCancelled
        }
        guard !isCancelled else {
            finish(URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]))
            return
        }
        let task = session.client.execute(request: ahcRequest, delegate: self, eventLoop: .delegate(on: eventLoop), logger: nil)
        let cancelledMeanwhile = state.withLockedValue { state in
            state.task = task
            return state.isCancelled
        }
        if cancelledMeanwhile { task.cancel() }
        task.futureResult.whenComplete { [self] result in taskEnded(result) }
    }

    /// Ends a task: follows the redirect its head answered with, or ends the exchange.
    private func taskEnded(_ result: Result<Void, any Error>) {
        switch result {
        case .success:
            guard let redirect = state.withLockedValue({ $0.redirect }) else { return finish(nil) }
            send(redirect)
        case .failure(let error):
            let (failure, isCancelled, url) = state.withLockedValue { ($0.failure, $0.isCancelled, $0.request.url) }
            if let failure { return finish(failure) }
            if isCancelled { return finish(URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])) }
            // Nobody here cancelled it: the client was shut down while the task was in flight.
            if let clientError = error as? HTTPClientError, clientError == .cancelled { return finish(TransportError.shutDown(at: url)) }
            finish(TransportError.map(error, url: url))
        }
    }

    /// Reports the end once: to the receiver, after everything reported before it; with the
    /// head and body of an answer read whole.
    private func finish(_ error: (any Error)?) {
        let answer: (head: ResponseHead?, body: Data?)? = state.withLockedValue { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.task = nil
            return (state.head.take(), state.body.take())
        }
        guard let answer else { return }
        if idleTimeout != nil { session.idleWatch.unwatch(self) }
        if let origin { session.loopAffinity.ended(origin) }
        guard let delivery else { return receiver.finish(with: answer.head, body: answer.body, error: error) }
        delivery.finish(error)
    }

    /// Ends the exchange with `error` at once: stops the task in flight, whose failure then ends it.
    func fail(with error: any Error, stopping task: HTTPClient.Task<Void>) {
        state.withLockedValue { state in
            if state.failure == nil { state.failure = error }
        }
        task.fail(reason: error)
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
            return .expire(state.task, state.request.url)
        }
        switch next {
        case .ended:
            return nil
        case .wait(let deadline):
            return deadline
        case .expire(let task, let url):
            let timedOut = URLError(.timedOut, userInfo: [
                NSLocalizedDescriptionKey: "The request timed out.",
                NSURLErrorFailingURLErrorKey: url as Any,
            ])
            if let task { fail(with: timedOut, stopping: task) } else { finish(timedOut) }
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

// MARK: - Events of a task

/// AsyncHTTPClient calls these on the exchange's event loop, one at a time, and reads the next body
/// part only once the future returned for the previous one has completed.
extension Exchange: HTTPClientResponseDelegate {
    typealias Response = Void

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        let (sent, expected) = state.withLockedValue { state in
            state.bytesSent += Int64(part.readableBytes)
            if idleTimeout != nil { state.lastActivity = .now() }
            return (state.bytesSent, state.bytesExpected)
        }
        guard let delivery else { return receiver.didSend(sent, of: expected) }
        delivery.didSend(sent, of: expected)
    }

    /// A second visit means the client followed a redirect itself, with its own rules rather than
    /// Salvo's: the exchange ends before that request gets an answer.
    func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        let visits = state.withLockedValue { state in
            state.visits += 1
            return state.visits
        }
        guard visits > 1 else { return }
        fail(with: TransportError.clientFollowsRedirects(at: request.url), stopping: task)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        switch decide(on: head) {
        case .deliver(let response):
            guard let delivery else {
                state.withLockedValue { $0.head = response }
                break
            }
            return delivery.head(response, on: eventLoop)
        case .follow:
            break
        case .fail(let error):
            fail(with: error, stopping: task)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Keeps a part of a body read whole, or hands a streamed one to the receiver: then the
    /// future completes once the receiver has it, and AsyncHTTPClient reads no more of the body
    /// until then. A redirect's body is dropped.
    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let isStreamed = delivery != nil
        let isRedirect = state.withLockedValue { state in
            if idleTimeout != nil { state.lastActivity = .now() }
            guard state.redirect == nil else { return true }
            if !isStreamed { Delivery.append(buffer, to: &state.body) }
            return false
        }
        guard !isRedirect, let delivery else { return task.eventLoop.makeSucceededVoidFuture() }
        return delivery.chunk(buffer, on: eventLoop)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}

    /// What a task does with its response head.
    private enum HeadDecision {
        /// The head is the answer: report it and the body that follows.
        case deliver(ResponseHead)
        /// The head redirects: drop its body and send the next request (the state's
        /// `redirect`) once the task ends.
        case follow
        /// The exchange ends with this error.
        case fail(any Error)
    }

    /// Decides on the current task's response head, after storing the cookies it sets.
    private func decide(on head: HTTPResponseHead) -> HeadDecision {
        let (request, redirectCount) = state.withLockedValue { state in
            if idleTimeout != nil { state.lastActivity = .now() }
            return (state.request, state.redirectCount)
        }
        guard let url = request.url else {
            return .fail(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]))
        }
        let response = ResponseHead(head, url: url)
        if let storage = session.cookieStorage, request.httpShouldHandleCookies {
            storage.store(setCookieFields: head.headers[canonicalForm: "Set-Cookie"].map(String.init), from: url)
        }
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
            state.redirect = following
        }
        if let delivery { delivery.didFollowRedirect() } else { receiver.didFollowRedirect() }
        return .follow
    }
}
