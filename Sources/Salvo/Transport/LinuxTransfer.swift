#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// One request on Linux `URLSession`, repaired where swift-corelibs-foundation loses an outcome.
///
/// It is the delegate of each data task it starts and reports the exchange to a
/// ``ResponseReceiver``, with three repairs (and timeouts rounded up to whole seconds,
/// ``withWholeSecondTimeout(_:)``):
///
/// - **Challenges complete.** `_ProtocolClient.urlProtocolDidFinishLoading` turns a 401 whose
///   `WWW-Authenticate` it can parse (Basic) into a challenge instead of finishing the task, and
///   `attemptProceedingWithDefaultCredential` does nothing without a stored credential, so before
///   swift-corelibs-foundation #5457 the task waits forever and its timeout, already disarmed,
///   never fires. Unless the session's delegate supplies a credential, the challenge is cancelled
///   and the 401 or 407 is reported with its status and headers, as on Apple platforms; corelibs
///   never hands such a response's body to a completion handler, so it arrives empty.
/// - **Redirects keep their body.** `_HTTPURLProtocol.redirectFor(request:)` and
///   `didCompleteRedirectCallback(_:)` reset `task.knownBody` before the next transfer, so a
///   redirect that keeps the method (307, 308, and 301/302 for methods other than POST) arrives
///   with `Content-Length: 0`. Every redirect is decided by Salvo's rules
///   (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`: method, body, credentials, the
///   limit of 20) instead of corelibs' own; one that keeps a body is not followed by the task: the
///   transfer sends the redirected request as a new task.
/// - **An explicit `Cookie` header is sent as written**, not replaced by stored cookies: see
///   `URLSession.keepingCookieHeader(of:)`. Such a task may belong to a companion session, so
///   challenges and redirects are put to the delegate of the session the request was fired on.
///
/// A streamed body reaches the receiver chunk by chunk through a companion session (see
/// ``StreamingDelegate``). The delegate callbacks arrive on the session's delegate queue; all
/// state sits behind one lock.
final class LinuxTransfer: NSObject, URLSessionDataDelegate, NetworkSessionTask, Sendable {
    private struct State {
        var task: URLSessionDataTask?
        /// The 401/407 whose challenge was cancelled so that it could be reported.
        var challenged: URLResponse?
        /// The redirected request this transfer sends itself, body included.
        var followUp: URLRequest?
        /// The request last sent: the one a redirect response answers.
        var request: URLRequest
        var redirects = 0
        /// Why the exchange ends although the task completes: a redirect Salvo's rules refuse.
        var failure: URLError?
        var isCancelled = false
    }

    private let session: URLSession
    /// Whether the request as fired carried a `Cookie` header of the caller's own.
    private let hasCallersCookieHeader: Bool
    private let state: Locked<State>
    private let receiver: any ResponseReceiver

    private init(_ request: URLRequest, session: URLSession, hasCallersCookieHeader: Bool, receiver: any ResponseReceiver) {
        state = Locked(State(request: request))
        self.session = session
        self.hasCallersCookieHeader = hasCallersCookieHeader
        self.receiver = receiver
    }

    /// Starts `request` on `session` and reports the exchange to `receiver`.
    static func start(_ request: URLRequest, on session: URLSession, reportingTo receiver: any ResponseReceiver) -> LinuxTransfer {
        let transfer = LinuxTransfer(
            request,
            session: session,
            hasCallersCookieHeader: request.value(forHTTPHeaderField: "Cookie") != nil,
            receiver: receiver
        )
        transfer.send(request)
        return transfer
    }

    /// A whole body arrives through a completion handler, the cheapest path in corelibs; a streamed
    /// one through a companion session whose delegate hands each task's events to its transfer
    /// (corelibs gives a task's own delegate no data: see Docs/Linux.md).
    private func send(_ request: URLRequest) {
        let request = Self.withWholeSecondTimeout(request)
        let task: URLSessionDataTask
        if receiver.readsBodyAsItArrives {
            task = CompanionSessions.streaming(for: session, keepingCookieHeader: session.needsCookieHeaderKept(for: request)).dataTask(with: request)
            StreamingDelegate.shared.register(self, for: task)
        } else {
            task = session.keepingCookieHeader(of: request).dataTask(with: request) { [self] data, response, error in
                finish(data: data, response: response, error: error)
            }
            // With a completion handler, corelibs asks the task delegate about challenges and
            // redirects only; the response and body still arrive through the handler.
            task.delegate = self
        }
        let isCancelled = state.withLock { state in
            state.task = task
            state.challenged = nil
            state.followUp = nil
            return state.isCancelled
        }
        if isCancelled { task.cancel() }
        task.resume()
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

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Ends one task: follows a redirect this transfer took over, or reports the end.
    ///
    /// `data` is the whole body of a completion-handler task, `nil` for a streamed one (its
    /// chunks have been reported already).
    private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        enum Next { case report(head: URLResponse?, body: Data?, (any Error)?), follow(URLRequest) }
        let isStreamed = receiver.readsBodyAsItArrives
        let next: Next = state.withLock { state in
            if let followUp = state.followUp, !state.isCancelled {
                return .follow(followUp)
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
        case .follow(let request):
            send(request)
        case .report(let head, let body, let error):
            if let head { receiver.receive(head) }
            if let body, !body.isEmpty { receiver.receive(body) }
            receiver.finish(error)
        }
    }

    /// Whether events of the current task are to be dropped: it was cancelled, or it ends in a
    /// redirect this transfer follows itself or refused.
    private var isDroppingEvents: Bool {
        state.withLock { $0.isCancelled || $0.followUp != nil || $0.challenged != nil || $0.failure != nil }
    }

    // MARK: - Streamed task events (from StreamingDelegate)

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if isDroppingEvents {
            completionHandler(.cancel)
            return
        }
        receiver.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !isDroppingEvents { receiver.receive(data) }
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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        StreamingDelegate.shared.unregister(task)
        finish(data: nil, response: task.response, error: error)
    }

    // MARK: - Delegate

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

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Salvo's rules decide, not corelibs' request: the same method, body, credentials and
        // limit as every other Salvo session.
        let (current, redirects) = state.withLock { ($0.request, $0.redirects) }
        let next: URLRequest?
        do {
            next = try current.redirected(by: response, redirectCount: redirects, credentialHeaders: receiver.credentialHeaders)
        } catch {
            state.withLock { $0.failure = error }
            completionHandler(nil)
            return
        }
        guard let next else {
            completionHandler(nil)
            return
        }
        RedirectGuard.forward(withStoredCookies(next), of: self.session, task: task, response: response) { [self] decided in
            guard let decided else {
                completionHandler(nil)
                return
            }
            let keepsBody = Self.losesBody(decided)
            state.withLock { state in
                state.request = decided
                state.redirects += 1
                if keepsBody { state.followUp = decided }
            }
            receiver.didFollowRedirect()
            completionHandler(keepsBody ? nil : decided)
        }
    }

    /// `redirected` with the cookies stored for its URL, as corelibs does only for tasks without a
    /// delegate (`_HTTPURLProtocol.redirectFor(request:)`): with one, the redirected request keeps
    /// the `Cookie` header added when the task was created, so cookies the redirect response set
    /// (httpbin's `/cookies/set`) or cookies of the target's path never reach the target.
    /// A `Cookie` header the caller wrote is kept as the redirect rules left it (on its origin only).
    private func withStoredCookies(_ redirected: URLRequest) -> URLRequest {
        let configuration = session.configuration
        guard configuration.httpShouldSetCookies, redirected.httpShouldHandleCookies,
              let storage = configuration.httpCookieStorage, let url = redirected.url,
              !hasCallersCookieHeader
        else { return redirected }
        var request = redirected
        request.setValue(nil, forHTTPHeaderField: "Cookie")
        let stored = storage.cookies(for: url) ?? []
        for (name, value) in HTTPCookie.requestHeaderFields(with: stored) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// Whether corelibs would send `redirected` without its body: it has one to send.
    static func losesBody(_ redirected: URLRequest) -> Bool {
        if let body = redirected.httpBody { return !body.isEmpty }
        return redirected.httpBodyStream != nil
    }
}
#endif
