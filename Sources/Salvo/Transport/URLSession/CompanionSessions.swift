#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

extension URLSession {
    /// Whether `request` must go through a companion whose configuration leaves its own `Cookie`
    /// header as written.
    ///
    /// swift-corelibs-foundation's `URLSession._Configuration.setCookies(on:)` runs when a task is
    /// created and **replaces** the request's `Cookie` header with the cookies stored for its URL;
    /// it ignores `URLRequest.httpShouldHandleCookies` (measured: `mine=abc` went out as
    /// `session=…`). Only a session whose configuration has `httpShouldSetCookies = false` leaves
    /// the header alone. Requests without a `Cookie` header, or whose URL has no stored cookies,
    /// need no companion.
    func needsCookieHeaderKept(for request: URLRequest) -> Bool {
        guard request.value(forHTTPHeaderField: "Cookie") != nil,
              configuration.httpShouldSetCookies,
              let url = request.url,
              let stored = configuration.httpCookieStorage?.cookies(for: url)
        else { return false }
        return !stored.isEmpty
    }

    /// The session to start a whole-body `request` on so that its own `Cookie` header goes out as written.
    func keepingCookieHeader(of request: URLRequest) -> URLSession {
        needsCookieHeaderKept(for: request) ? CompanionSessions.keepingCookieHeader(for: self) : self
    }
}

/// Sessions Salvo starts some Linux tasks on instead of the session a call fires through, one of
/// each kind per session, for as long as that session lives.
///
/// A companion copies every setting of its session (same cookie storage, so cookies responses
/// set are still stored; same delegate queue) and changes one thing:
/// - **keeping a `Cookie` header**: `httpShouldSetCookies = false` (see
///   `URLSession.needsCookieHeaderKept(for:)`);
/// - **streaming**: ``StreamingRelay`` as its delegate, since corelibs reports a task's
///   response and data only to its session's delegate, never to the task's own.
///
/// Challenges and redirects of a companion's tasks are still put to the delegate of the session
/// the call fired through, by ``URLSessionExchange``.
enum CompanionSessions {
    private struct Key: Hashable {
        let session: ObjectIdentifier
        let isStreaming: Bool
        let keepsCookieHeader: Bool
    }

    private struct Entry {
        weak var original: URLSession?
        let companion: URLSession
    }

    private static let entries = Locked<[Key: Entry]>([:])

    /// The companion of `session` that leaves a request's own `Cookie` header as written.
    static func keepingCookieHeader(for session: URLSession) -> URLSession {
        companion(of: session, isStreaming: false, keepsCookieHeader: true)
    }

    /// The companion of `session` whose tasks report their response and data as they arrive.
    static func streaming(for session: URLSession, keepingCookieHeader: Bool) -> URLSession {
        companion(of: session, isStreaming: true, keepsCookieHeader: keepingCookieHeader)
    }

    private static func companion(of session: URLSession, isStreaming: Bool, keepsCookieHeader: Bool) -> URLSession {
        let key = Key(session: ObjectIdentifier(session), isStreaming: isStreaming, keepsCookieHeader: keepsCookieHeader)
        let (companion, released) = entries.withLock { entries in
            if let entry = entries[key], entry.original === session {
                return (entry.companion, [URLSession]())
            }
            guard let configuration = session.configuration.copy() as? URLSessionConfiguration else {
                return (session, [])
            }
            if keepsCookieHeader { configuration.httpShouldSetCookies = false }
            // An identifier can be reused once its session is gone: drop every dead entry first.
            let dead = entries.filter { $0.value.original == nil }
            for key in dead.keys { entries[key] = nil }
            let companion = URLSession(
                configuration: configuration,
                delegate: isStreaming ? StreamingRelay.shared : nil,
                delegateQueue: session.delegateQueue
            )
            entries[key] = Entry(original: session, companion: companion)
            return (companion, dead.values.map(\.companion))
        }
        released.forEach { $0.finishTasksAndInvalidate() }
        return companion
    }
}

/// The session delegate of every streaming companion: corelibs reports a streamed data task's
/// response, body, upload progress and end only to its session's delegate, never to the task's
/// own (Docs/Linux.md), so this hands them to the task's delegate, the ``URLSessionExchange`` that
/// started it. Redirects, challenges and body streams corelibs puts to the task's delegate itself.
final class StreamingRelay: NSObject, URLSessionDataDelegate, Sendable {
    static let shared = StreamingRelay()

    private func exchange(of task: URLSessionTask) -> URLSessionExchange? {
        task.delegate as? URLSessionExchange
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(of: dataTask) else { return completionHandler(.cancel) }
        exchange.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(of: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(of: task)?.urlSession(
            session, task: task, didSendBodyData: bytesSent,
            totalBytesSent: totalBytesSent, totalBytesExpectedToSend: totalBytesExpectedToSend
        )
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(of: task)?.urlSession(session, task: task, didCompleteWithError: error)
    }
}
#endif
