import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps credentials on their origin when `URLSession` follows a redirect.
///
/// `URLSession` copies every header of the original request onto the redirected one, so a
/// `302` to another host would receive the caller's `Authorization` (observed on Linux). Salvo
/// sets this guard as the delegate of each task it starts whose request carries such a header
/// (``isNeeded(for:alsoProtecting:)``): on a redirect to another scheme,
/// host or port it removes `Authorization`, `Proxy-Authorization`, `Cookie` and the headers the
/// task's receiver names in ``ResponseReceiver/credentialHeaders``, such as the one an
/// ``AuthTokenAction`` of the call sets (``Redirect/stripping(_:redirectedFrom:alsoProtected:)``),
/// then lets the session's own delegate, if any, decide as usual. On Linux ``LinuxTransfer`` applies the whole of
/// ``Redirect`` instead and forwards through ``forward(_:of:task:response:completionHandler:)``.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    /// The guard of every task whose call protects no header beyond the standard credentials.
    static let shared = RedirectGuard(alsoProtecting: [])

    /// The headers it protects besides ``Redirect/credentialHeaders``, lowercased.
    private let alsoProtected: Set<String>

    /// A guard that also protects `alsoProtected` (in any case).
    init(alsoProtecting alsoProtected: Set<String>) {
        self.alsoProtected = Set(alsoProtected.map { $0.lowercased() })
    }

    /// The guard for a task whose call protects `alsoProtected` too (lowercased): the shared one
    /// when that is empty.
    static func protecting(_ alsoProtected: Set<String>) -> RedirectGuard {
        alsoProtected.isEmpty ? shared : RedirectGuard(alsoProtecting: alsoProtected)
    }

    /// Whether `request` carries a header a guard protects: a standard credential or one of
    /// `alsoProtected` (lowercased). Only such requests need one.
    ///
    /// A task delegate is not free on Linux: with one set, the session's delegate queue gets more
    /// work per request, which measured ~8% of a loopback round trip (Docs/Performance.md).
    static func isNeeded(for request: URLRequest, alsoProtecting alsoProtected: Set<String> = []) -> Bool {
        !Redirect.protectedFieldNames(in: request, alsoProtected: alsoProtected).isEmpty
    }

    /// Hands `request`, the redirected request Salvo decided on, to the delegate of `session`
    /// (if it has one other than the guard) to decide as usual, else to `completionHandler`.
    static func forward(
        _ request: URLRequest,
        of session: URLSession,
        task: URLSessionTask,
        response: HTTPURLResponse,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let sessionDelegate = session.delegate as? any URLSessionTaskDelegate, !(sessionDelegate is RedirectGuard) else {
            completionHandler(request)
            return
        }
        // An optional Objective-C requirement on Apple platforms, a defaulted one on Linux.
        #if canImport(FoundationNetworking)
        sessionDelegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
        #else
        let forwarded: Void? = sessionDelegate.urlSession?(session, task: task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
        if forwarded == nil { completionHandler(request) }
        #endif
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let stripped = Redirect.stripping(request, redirectedFrom: response.url ?? task.currentRequest?.url, alsoProtected: alsoProtected)
        Self.forward(stripped, of: session, task: task, response: response, completionHandler: completionHandler)
    }

    /// Gives URLSession a body stream that starts again from the first byte when it must send a
    /// streamed body (a multipart form, a file) once more itself: Apple's URLSession asks after a
    /// 307/308 redirect or an authentication challenge, and fails the task without an answer.
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

    /// Whether a task for `request` needs a guard as its delegate: it carries a protected header
    /// (see ``isNeeded(for:alsoProtecting:)``), or a streamed body that URLSession may ask to send again.
    static func isDelegateNeeded(for request: URLRequest, alsoProtecting alsoProtected: Set<String> = []) -> Bool {
        isNeeded(for: request, alsoProtecting: alsoProtected) || request.httpBodyStream is BodyStream
    }
}
