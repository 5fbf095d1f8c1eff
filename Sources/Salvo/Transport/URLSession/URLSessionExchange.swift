import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession: NetworkSession {
    /// Starts a data task for `request` that reports to `receiver`.
    ///
    /// A whole body (`options.readsBodyAsItArrives` false) comes through a completion-handler
    /// task; a streamed one through a delegate task whose head and chunks reach `receiver` as
    /// they arrive. Redirects are followed by Salvo's rules on
    /// every platform (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`): a redirect to
    /// another scheme, host or port does not carry `Authorization`, `Cookie` or an auth action's
    /// header along, and one that keeps the method keeps the body; your session delegate still
    /// decides on each redirect. On Linux a 401 challenge completes and an explicit `Cookie` header
    /// is not replaced by stored cookies (see Docs/Linux.md).
    @_spi(Transport) public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        URLSessionExchange.start(request, on: self, options: options, reportingTo: receiver)
    }
}

/// One exchange on `URLSession`, on every platform: the delegate of each data task it starts, it
/// reports the exchange to a ``ResponseReceiver`` and follows redirects by Salvo's rules.
///
/// - **A whole body** arrives through a completion handler, the cheaper path in corelibs (one thread hop
///   to the delegate queue per request); a **streamed** one through the delegate callbacks, head
///   then chunks then the end. Either way this class is the task's delegate, and it is the one
///   place a `URLSession` event reaches a receiver.
/// - **Redirects are Salvo's.** The task never follows one: `willPerformHTTPRedirection` answers
///   `nil`, so the task ends with the 3xx, and the exchange sends the request
///   `URLRequest.redirected(by:redirectCount:credentialHeaders:)` decides on (method, body,
///   credentials kept on their origin, at most 20), after the session's own delegate has had its
///   say, as a new task. The mock session and other transports follow the same rules.
/// - **swift-corelibs-foundation's repairs** are fenced at the end of this file and in
///   `CompanionSessions.swift`, each listed in Docs/Linux.md: timeouts rounded up to whole
///   seconds, a Basic-challenged 401 that would never complete, an explicit `Cookie` header kept as
///   written, and streamed events that corelibs reports only to a session's delegate.
///
/// The delegate callbacks arrive on the session's delegate queue; all state sits behind one lock.
final class URLSessionExchange: NSObject, URLSessionDataDelegate, NetworkSessionTask, Sendable {
    private struct State {
        var task: URLSessionDataTask?
        /// The request last sent: the one a redirect response answers.
        var request: URLRequest
        var redirectCount = 0
        /// The redirected request to send once the current task ends.
        var redirect: URLRequest?
        /// Why the exchange ends although the task completes: a redirect Salvo's rules refuse.
        var failure: URLError?
        /// The 401/407 whose challenge was cancelled so that it could be reported (corelibs only).
        var challenged: URLResponse?
        /// Reads a body made while it is sent before its task starts (corelibs only).
        var reading: Task<Void, Never>?
        var isCancelled = false
    }

    /// The session the request was fired on, whose delegate decides on redirects (and, on Linux,
    /// challenges) even when a task runs on one of its companions.
    private let session: URLSession
    private let state: Locked<State>
    /// Whether the body is streamed (delegate callbacks) rather than collected (a completion handler).
    private let isStreamed: Bool
    /// The header fields a redirect to another origin drops besides the standard credentials.
    private let credentialHeaders: Set<String>
    private let receiver: any ResponseReceiver

    private init(_ request: URLRequest, session: URLSession, options: ExchangeOptions, receiver: any ResponseReceiver) {
        state = Locked(State(request: request))
        self.session = session
        isStreamed = options.readsBodyAsItArrives
        credentialHeaders = options.credentialHeaders
        self.receiver = receiver
    }

    /// Starts `request` on `session` and reports the exchange to `receiver`.
    static func start(
        _ request: URLRequest,
        on session: URLSession,
        options: ExchangeOptions,
        reportingTo receiver: any ResponseReceiver
    ) -> URLSessionExchange {
        let exchange = URLSessionExchange(request, session: session, options: options, receiver: receiver)
        exchange.send(request)
        return exchange
    }

    /// Starts one task for `request`: the first, or the next after a redirect.
    private func send(_ request: URLRequest) {
        #if canImport(FoundationNetworking)
        if let stream = request.httpBodyStream as? BodyStream, stream.makesChunks {
            sendAfterReading(stream, of: request)
            return
        }
        let request = Self.withWholeSecondTimeout(request)
        // Only a request with its own `Cookie` header may need a companion session (the header
        // read here, so every other request stays in this file).
        let hasCookieHeader = request.value(forHTTPHeaderField: "Cookie") != nil
        let taskSession = isStreamed
            ? CompanionSessions.streaming(for: session, keepingCookieHeader: hasCookieHeader && session.needsCookieHeaderKept(for: request))
            : hasCookieHeader ? session.keepingCookieHeader(of: request) : session
        #else
        let taskSession = session
        #endif
        let task = isStreamed
            ? taskSession.dataTask(with: request)
            : taskSession.dataTask(with: request) { [self] data, response, error in
                finish(data: data, response: response, error: error)
            }
        // With a completion handler, URLSession asks the task's delegate about redirects,
        // challenges and body streams only; the response and body still arrive through the handler.
        task.delegate = self
        let isCancelled = state.withLock { state in
            state.task = task
            state.challenged = nil
            state.redirect = nil
            return state.isCancelled
        }
        if isCancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let (task, reading) = state.withLock { state in
            state.isCancelled = true
            return (state.task, state.reading)
        }
        task?.cancel()
        reading?.cancel()
    }

    /// Ends one task: sends the redirected request Salvo decided on, or reports the end.
    ///
    /// `data` is the whole body of a completion-handler task, `nil` for a streamed one (its
    /// chunks have been reported already).
    private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        enum Next { case report(head: URLResponse?, body: Data?, (any Error)?), send(URLRequest) }
        let isStreamed = self.isStreamed
        let next: Next = state.withLock { state in
            if let redirect = state.redirect, !state.isCancelled {
                return .send(redirect)
            }
            state.task = nil
            if let failure = state.failure, !state.isCancelled {
                return .report(head: nil, body: nil, failure)
            }
            if let challenged = state.challenged, !state.isCancelled {
                // The body of a challenged response never reaches corelibs' handler or delegate.
                return .report(head: challenged, body: nil, nil)
            }
            return .report(head: isStreamed ? nil : response, body: data, error)
        }
        switch next {
        case .send(let request):
            send(request)
        case .report(let head, let body, let error):
            receiver.finish(with: head.flatMap(ResponseHead.init), body: body, error: error)
        }
    }

    /// Whether the current task's events are to be dropped: the exchange was cancelled, or the
    /// task ends in a redirect Salvo follows, refused, or a challenge reported as the answer.
    private var isDroppingEvents: Bool {
        state.withLock { $0.isCancelled || $0.redirect != nil || $0.challenged != nil || $0.failure != nil }
    }

    // MARK: - A streamed task's events

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard isStreamed else {
            // A whole body arrives through the completion handler, whoever else URLSession tells.
            completionHandler(.allow)
            return
        }
        guard !isDroppingEvents else {
            completionHandler(.cancel)
            return
        }
        receiver.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if isStreamed, !isDroppingEvents { receiver.receive(data) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        receiver.didSend(totalBytesSent, of: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }

    /// Ends a streamed task; a whole-body task ends in its completion handler, which is the one
    /// heard even where URLSession tells the task's delegate too.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard isStreamed else { return }
        finish(data: nil, response: task.response, error: error)
    }

    // MARK: - Redirects and body streams

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let (current, redirectCount) = state.withLock { ($0.request, $0.redirectCount) }
        let next: URLRequest?
        do {
            next = try current.redirected(by: response, redirectCount: redirectCount, credentialHeaders: credentialHeaders)
        } catch {
            state.withLock { $0.failure = error }
            completionHandler(nil)
            return
        }
        guard let next else {
            completionHandler(nil)
            return
        }
        askSessionDelegate(about: next, redirectedBy: response, task: task) { [self] decided in
            if let decided {
                state.withLock { state in
                    state.request = decided
                    state.redirectCount += 1
                    state.redirect = decided
                }
                receiver.didFollowRedirect()
            }
            // The task ends with the 3xx either way; `finish` sends `decided` as a new task.
            completionHandler(nil)
        }
    }

    /// Hands `request`, the redirected request Salvo decided on, to the delegate of the session the
    /// request was fired on to decide as usual (it may change or refuse it), else to `decide`.
    private func askSessionDelegate(
        about request: URLRequest,
        redirectedBy response: HTTPURLResponse,
        task: URLSessionTask,
        decide: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let delegate = session.delegate as? any URLSessionTaskDelegate else {
            decide(request)
            return
        }
        #if canImport(FoundationNetworking)
        delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: decide)
        #else
        // An optional Objective-C requirement on Apple platforms: a delegate without it lets the redirect go.
        let asked: Void? = delegate.urlSession?(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: decide)
        if asked == nil { decide(request) }
        #endif
    }

    /// Gives URLSession a body stream that starts again from the first byte when it must send a
    /// streamed body (a multipart form, a file) once more itself, after an authentication
    /// challenge: Apple's URLSession asks, and fails the task without an answer.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        completionHandler(Self.newBodyStream(for: task))
    }

    /// A fresh copy of `task`'s Salvo body stream, or `nil` when its body is not one.
    static func newBodyStream(for task: URLSessionTask) -> InputStream? {
        (task.originalRequest?.httpBodyStream as? BodyStream)?.restarted()
    }

    // MARK: - Task metrics

    /// Hands a task's metrics to the receiver while the exchange runs (each redirect Salvo follows
    /// is a task with metrics of its own), then to the session's delegate, which URLSession no
    /// longer tells once a task's delegate implements this method.
    ///
    /// Apple's URLSession calls it as each task completes; swift-corelibs-foundation never does, so
    /// on Linux the tests call it directly. Metrics after the exchange has ended stay out of the
    /// attempt: its receiver has been told of the end.
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        if state.withLock({ $0.task != nil }) { receiver.didCollect(metrics) }
        guard let delegate = self.session.delegate as? any URLSessionTaskDelegate else { return }
        #if canImport(FoundationNetworking)
        delegate.urlSession(self.session, task: task, didFinishCollecting: metrics)
        #else
        delegate.urlSession?(self.session, task: task, didFinishCollecting: metrics)
        #endif
    }

    #if canImport(FoundationNetworking)
    // MARK: - swift-corelibs-foundation repairs (Linux only; Docs/Linux.md)

    /// Answers a challenge so that the task completes.
    ///
    /// `_ProtocolClient.urlProtocolDidFinishLoading` turns a 401 whose `WWW-Authenticate` it can
    /// parse (Basic) into a challenge instead of finishing the task, and
    /// `attemptProceedingWithDefaultCredential` does nothing without a stored credential, so before
    /// swift-corelibs-foundation #5457 the task waits forever and its timeout, already disarmed,
    /// never fires. Unless the session's delegate supplies a credential, the challenge is cancelled
    /// and the 401 or 407 is reported with its status and headers, as on Apple platforms; corelibs
    /// never hands such a response's body over, so it arrives empty.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let answer: @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void = { [self] disposition, credential in
            if Self.leavesChallengeUnanswered(disposition, credential: credential, challenge: challenge) {
                state.withLock { $0.challenged = challenge.failureResponse }
                completionHandler(.cancelAuthenticationChallenge, nil)
            } else {
                completionHandler(disposition, credential)
            }
        }
        if let sessionDelegate = self.session.delegate as? any URLSessionTaskDelegate {
            // Its default answers .performDefaultHandling, which the check above turns into the 401.
            sessionDelegate.urlSession(self.session, task: task, didReceive: challenge, completionHandler: answer)
        } else {
            answer(.performDefaultHandling, nil)
        }
    }

    /// Whether an answer would leave a challenge pending (corelibs before #5457) or resend the
    /// request with nothing new: default handling without a credential to propose.
    static func leavesChallengeUnanswered(
        _ disposition: URLSession.AuthChallengeDisposition,
        credential: URLCredential?,
        challenge: URLAuthenticationChallenge
    ) -> Bool {
        switch disposition {
        case .performDefaultHandling: challenge.proposedCredential == nil
        case .useCredential: credential == nil
        default: false
        }
    }

    /// Reads a body made while it is sent (``RequestBody/stream(length:contentType:_:)``) whole,
    /// then sends `request` with it in memory.
    ///
    /// corelibs reads a body stream synchronously on the one queue every `URLSession` of the
    /// process shares, and takes "no bytes available" as the end of the body (Docs/Linux.md): a
    /// stream waiting there for its next chunk stops every transfer, and every thread that starts a
    /// task (`createNextTaskIdentifier` waits on that queue), until cooperative threads run out
    /// and the chunk is never made. So on Linux the chunks are made first, without blocking a thread.
    private func sendAfterReading(_ stream: BodyStream, of request: URLRequest) {
        // A stream is not Sendable; what it is made of is.
        let segments = stream.segments, body = stream.body
        let reading = Task { [self] in
            let whole: Data?
            do {
                whole = try await BodyStream(segments, of: body).collect(limit: Int64(Int.max))
            } catch {
                let isCancelled = state.withLock { $0.isCancelled }
                receiver.finish(isCancelled ? URLError(.cancelled) : error)
                return
            }
            guard !state.withLock({ $0.isCancelled }) else {
                receiver.finish(URLError(.cancelled))
                return
            }
            var inMemory = request
            inMemory.httpBodyStream = nil
            inMemory.httpBody = whole ?? Data()
            send(inMemory)
        }
        let isCancelled = state.withLock { state in
            state.reading = reading
            return state.isCancelled
        }
        if isCancelled { reading.cancel() }
    }

    /// `request` with its timeout rounded up to whole seconds, at least 1: libcurl-based
    /// `URLSession` truncates a timeout, so 0.5 would time out at once. The request a call builds
    /// carries the exact timeout, which other transports honour.
    static func withWholeSecondTimeout(_ request: URLRequest) -> URLRequest {
        let seconds = request.timeoutInterval
        guard seconds > 0, seconds.isFinite else { return request }
        let whole = max(1, seconds.rounded(.up))
        guard whole != seconds else { return request }
        var rounded = request
        rounded.timeoutInterval = whole
        return rounded
    }
    #endif
}
