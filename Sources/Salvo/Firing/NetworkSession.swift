import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something that sends a request and reports what came back: `URLSession`, or a fake in tests.
///
/// Production firing uses a session; inject your own configured `URLSession` or any conforming type.
public protocol NetworkSession: Sendable {
    /// Starts sending `request` and calls `completion` exactly once with what came back.
    ///
    /// After the returned task is cancelled, `completion` is still called (with `URLError(.cancelled)`,
    /// as `URLSession` does); Salvo ignores it.
    func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask
}

/// A request a ``NetworkSession`` has started; `URLSessionTask` is one.
public protocol NetworkSessionTask: Sendable {
    /// Stops the request.
    func cancel()
}

extension URLSessionTask: NetworkSessionTask {}

extension URLSession: NetworkSession {
    /// Starts a data task for `request`.
    ///
    /// A redirect to another scheme, host or port does not carry `Authorization`, `Cookie` or an
    /// auth action's header along; your session delegate still decides on the redirect. On Linux
    /// a 401 challenge completes, a redirect keeps the request body and an explicit `Cookie`
    /// header is not replaced by stored cookies (see Docs/Linux.md).
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        #if canImport(FoundationNetworking)
        return LinuxTransfer.start(request, on: self, completion: completion)
        #else
        let task = dataTask(with: request, completionHandler: completion)
        if RedirectGuard.isNeeded(for: request) { task.delegate = RedirectGuard.shared }
        task.resume()
        return task
        #endif
    }
}
