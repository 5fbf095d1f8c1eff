import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession: NetworkSession {
    /// Starts a data task for `request` that reports to `receiver`.
    ///
    /// A whole-body call uses a completion-handler task; a streamed one a delegate task whose
    /// head and chunks reach `receiver` as they arrive. A redirect to another scheme, host or port
    /// does not carry `Authorization`, `Cookie` or an auth action's header along; your session
    /// delegate still decides on the redirect. On Linux a 401 challenge completes, a redirect keeps
    /// the request body and an explicit `Cookie` header is not replaced by stored cookies (see
    /// Docs/Linux.md).
    @_spi(Transport) public func start(_ request: URLRequest, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        #if canImport(FoundationNetworking)
        return LinuxTransfer.start(request, on: self, reportingTo: receiver)
        #else
        let alsoProtected = Set(receiver.credentialHeaders.map { $0.lowercased() })
        if receiver.readsBodyAsItArrives {
            let task = dataTask(with: request)
            task.delegate = StreamingTaskDelegate(
                receiver: receiver,
                redirectGuard: RedirectGuard.isNeeded(for: request, alsoProtecting: alsoProtected) ? RedirectGuard.protecting(alsoProtected) : nil
            )
            task.resume()
            return task
        }
        let task = dataTask(with: request) { data, response, error in
            if let response { receiver.receive(response) }
            if let data, !data.isEmpty { receiver.receive(data) }
            receiver.finish(error)
        }
        if RedirectGuard.isDelegateNeeded(for: request, alsoProtecting: alsoProtected) {
            task.delegate = RedirectGuard.protecting(alsoProtected)
        }
        task.resume()
        return task
        #endif
    }

    /// Starts a data task for `request` and calls `completion` with what came back, with the same
    /// redirect and Linux repairs as `start(_:receiver:)`.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        start(request, receiver: ExchangeCollector { completion($0.body, $0.head?.urlResponse, $0.error) })
    }
}

#if !canImport(FoundationNetworking)
/// The delegate of one streamed data task on Apple platforms, where a task's own delegate hears
/// its response and data: reports them to the receiver and guards redirects like ``RedirectGuard``.
private final class StreamingTaskDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let receiver: any ResponseReceiver
    /// The guard of the task's redirects; `nil` when its request carries no credentials.
    private let redirectGuard: RedirectGuard?

    init(receiver: any ResponseReceiver, redirectGuard: RedirectGuard?) {
        self.receiver = receiver
        self.redirectGuard = redirectGuard
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        receiver.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        receiver.receive(data)
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
        receiver.finish(error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        completionHandler(RedirectGuard.newBodyStream(for: task))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let redirectGuard else {
            completionHandler(request)
            return
        }
        redirectGuard.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
    }
}
#endif
