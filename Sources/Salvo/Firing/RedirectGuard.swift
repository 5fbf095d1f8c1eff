import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps credentials on their origin when `URLSession` follows a redirect.
///
/// `URLSession` copies every header of the original request onto the redirected one, so a
/// `302` to another host would receive the caller's `Authorization` (observed on Linux). Salvo
/// sets this guard as the delegate of each task it starts whose request carries such a header
/// (``isNeeded(for:)``): on a redirect to another scheme,
/// host or port it removes `Authorization`, `Proxy-Authorization`, `Cookie` and every header an
/// ``AuthTokenAction`` uses, then lets the session's own delegate, if any, decide as usual.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    /// The one guard; it holds no per-task state.
    static let shared = RedirectGuard()

    /// Darwin's and swift-corelibs-foundation's redirect limit; Salvo's own redirect following
    /// (Linux body-keeping redirects, mock redirects) ends a loop at the same count.
    static let maximumRedirects = 20

    /// The error a redirect chain past ``maximumRedirects`` ends with, failing at `url`.
    static func tooManyRedirects(at url: URL?) -> URLError {
        URLError(.httpTooManyRedirects, userInfo: [
            NSLocalizedDescriptionKey: "more than \(maximumRedirects) redirects",
            NSURLErrorFailingURLErrorKey: url as Any,
        ])
    }

    private static let protectedHeaders = Locked<Set<String>>(["authorization", "proxy-authorization", "cookie"])

    /// Adds a header whose value must never follow a redirect to another origin.
    static func protectHeader(_ name: String) {
        _ = protectedHeaders.withLock { $0.insert(name.lowercased()) }
    }

    /// Whether `request` carries a header the guard protects; only such requests need it.
    ///
    /// A task delegate is not free on Linux: with one set, the session's delegate queue gets more
    /// work per request, which measured ~8% of a loopback round trip (Docs/Performance.md).
    static func isNeeded(for request: URLRequest) -> Bool {
        !protectedFieldNames(in: request).isEmpty
    }

    /// The names of `request`'s header fields that the guard protects, as the request spells them.
    private static func protectedFieldNames(in request: URLRequest) -> [String] {
        guard let fields = request.allHTTPHeaderFields, !fields.isEmpty else { return [] }
        let protected = protectedHeaders.withLock { $0 }
        return fields.keys.filter { protected.contains($0.lowercased()) }
    }

    /// `request` without protected headers when it leaves the origin of `previous`.
    static func stripping(_ request: URLRequest, redirectedFrom previous: URL?) -> URLRequest {
        guard let from = previous, let to = request.url, let scheme = from.scheme, let host = from.host,
              !Origin(scheme: scheme, host: host, port: from.port).matches(to) else {
            return request
        }
        var stripped = request
        for name in protectedFieldNames(in: request) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let stripped = Self.stripping(request, redirectedFrom: response.url ?? task.currentRequest?.url)
        if let sessionDelegate = session.delegate as? any URLSessionTaskDelegate, sessionDelegate !== self {
            // An optional Objective-C requirement on Apple platforms, a defaulted one on Linux.
            #if canImport(FoundationNetworking)
            sessionDelegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: stripped, completionHandler: completionHandler)
            #else
            let forwarded: Void? = sessionDelegate.urlSession?(session, task: task, willPerformHTTPRedirection: response, newRequest: stripped, completionHandler: completionHandler)
            if forwarded == nil { completionHandler(stripped) }
            #endif
        } else {
            completionHandler(stripped)
        }
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

    /// Whether a task for `request` needs the guard as its delegate: it carries a protected
    /// header, or a streamed body that URLSession may ask to send again.
    static func isDelegateNeeded(for request: URLRequest) -> Bool {
        isNeeded(for: request) || request.httpBodyStream is BodyStream
    }
}
