#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// One request on Linux `URLSession`, repaired where swift-corelibs-foundation loses an outcome.
///
/// It is the delegate of each data task it starts and reports what came back once, like a
/// completion handler, with three repairs:
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
///   with `Content-Length: 0`. Such a redirect is not followed by the task; the transfer sends the
///   redirected request (credentials stripped by ``RedirectGuard``) as a new task, at most
///   ``RedirectGuard/maximumRedirects`` times.
/// - **An explicit `Cookie` header is sent as written**, not replaced by stored cookies: see
///   `URLSession.keepingCookieHeader(of:)`. Such a task may belong to a companion session, so
///   challenges and redirects are put to the delegate of the session the request was fired on.
///
/// The delegate callbacks arrive on the session's delegate queue; all state sits behind one lock.
final class LinuxTransfer: NSObject, URLSessionTaskDelegate, NetworkSessionTask, Sendable {
    private struct State {
        var task: URLSessionDataTask?
        /// The 401/407 whose challenge was cancelled so that it could be reported.
        var challenged: URLResponse?
        /// The redirected request this transfer sends itself, body included.
        var followUp: URLRequest?
        var redirects = 0
        var isCancelled = false
    }

    private let session: URLSession
    /// Whether the request as fired carried a `Cookie` header of the caller's own.
    private let hasCallersCookieHeader: Bool
    private let state = Locked(State())
    private let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    private init(
        session: URLSession,
        hasCallersCookieHeader: Bool,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        self.session = session
        self.hasCallersCookieHeader = hasCallersCookieHeader
        self.completion = completion
    }

    /// Starts `request` on `session` and calls `completion` exactly once with what came back.
    static func start(
        _ request: URLRequest,
        on session: URLSession,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> LinuxTransfer {
        let transfer = LinuxTransfer(
            session: session,
            hasCallersCookieHeader: request.value(forHTTPHeaderField: "Cookie") != nil,
            completion: completion
        )
        transfer.send(request)
        return transfer
    }

    private func send(_ request: URLRequest) {
        let task = session.keepingCookieHeader(of: request).dataTask(with: request) { [self] data, response, error in
            finish(data: data, response: response, error: error)
        }
        // With a completion handler, corelibs asks the task delegate about challenges and
        // redirects only; the response and body still arrive through the handler.
        task.delegate = self
        let isCancelled = state.withLock { state in
            state.task = task
            state.challenged = nil
            state.followUp = nil
            return state.isCancelled
        }
        if isCancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        enum Next { case report(Data?, URLResponse?, (any Error)?), follow(URLRequest) }
        let next: Next = state.withLock { state in
            if let followUp = state.followUp, !state.isCancelled {
                state.redirects += 1
                guard state.redirects <= RedirectGuard.maximumRedirects else {
                    state.task = nil
                    return .report(nil, nil, RedirectGuard.tooManyRedirects(at: followUp.url))
                }
                return .follow(followUp)
            }
            state.task = nil
            if let challenged = state.challenged, !state.isCancelled {
                // The body of a challenged response never reaches a completion handler in corelibs.
                return .report(data ?? Data(), challenged, nil)
            }
            return .report(data, response, error)
        }
        switch next {
        case .follow(let request): send(request)
        case .report(let data, let response, let error): completion(data, response, error)
        }
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
        let withCookies = withStoredCookies(request)
        RedirectGuard.shared.urlSession(self.session, task: task, willPerformHTTPRedirection: response, newRequest: withCookies) { [self] decided in
            guard let decided, Self.losesBody(decided) else {
                completionHandler(decided)
                return
            }
            state.withLock { $0.followUp = decided }
            completionHandler(nil)
        }
    }

    /// `redirected` with the cookies stored for its URL, as corelibs does only for tasks without a
    /// delegate (`_HTTPURLProtocol.redirectFor(request:)`): with one, the redirected request keeps
    /// the `Cookie` header added when the task was created, so cookies the redirect response set
    /// (httpbin's `/cookies/set`) or cookies of the target's path never reach the target.
    /// A `Cookie` header the caller wrote is left to ``RedirectGuard``, which keeps it on the origin.
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
