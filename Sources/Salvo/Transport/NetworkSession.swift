import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something that sends a request and reports what comes back: `URLSession`, the mock, replay and
/// recording sessions, another HTTP client, or a fake in tests.
///
/// A session implements one of two methods; each has a default made from the other:
///
/// - `start(_:options:receiver:)` reports an exchange as it happens: the response head as soon as it is
///   known, then the body in chunks, then the end. Streams, progress and head-first decisions
///   need it; Salvo always fires through it.
/// - ``start(_:completion:)`` reports the whole exchange at once, as `URLSession`'s completion
///   handlers do. A fake that implements only this keeps working, written with a plain
///   `import Salvo`: its answer reaches a receiver as a head, one chunk and the end.
///
/// ```swift
/// struct CannedSession: NetworkSession {
///     struct Task: NetworkSessionTask { func cancel() {} }
///
///     func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> any NetworkSessionTask {
///         let response = request.url.flatMap { HTTPURLResponse(url: $0, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil) }
///         completion(Data("{}".utf8), response, nil)
///         return Task()
///     }
/// }
/// ```
///
/// A session that reports as the exchange happens is transport API: it imports Salvo with
/// `@_spi(Transport) import Salvo`, which brings `start(_:options:receiver:)`, the members of
/// ``ExchangeOptions`` and ``ResponseReceiver`` and `ResponseHead`'s initializers. Passing a
/// session to ``FiringFunction/session(_:clock:)`` needs no such import.
///
/// ```swift
/// struct TickerSession: NetworkSession {
///     func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
///         if let url = request.url {
///             receiver.receive(ResponseHead(statusCode: 200, headers: ["Content-Type": "text/plain"], url: url))
///             receiver.receive(Data("tick\n".utf8))
///         }
///         receiver.finish(nil)
///         return FinishedSessionTask()
///     }
/// }
/// ```
public protocol NetworkSession: Sendable {
    /// Starts sending `request` and reports the exchange to `receiver` as it happens: at most one
    /// head, then body chunks, then exactly one `ResponseReceiver/finish(_:)`. `options` say how
    /// the body is read and which other headers carry credentials.
    ///
    /// After the returned task is cancelled the session still finishes (with `URLError(.cancelled)`
    /// unless it already had); Salvo ignores what arrives after it cancelled.
    @_spi(Transport) func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask

    /// Starts sending `request` and calls `completion` exactly once with the whole exchange.
    ///
    /// After the returned task is cancelled, `completion` is still called (with `URLError(.cancelled)`,
    /// as `URLSession` does); Salvo ignores it.
    func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask
}

extension NetworkSession {
    /// Reports the whole exchange from ``start(_:completion:)`` in one `finish(with:body:error:)`.
    ///
    /// Public, not transport API, so that a session written with a plain `import Salvo` that
    /// implements only ``start(_:completion:)`` conforms (an SPI default is no witness outside SPI).
    public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        if let collector = receiver as? ExchangeCollector, collector.isCompletionDefault {
            // The other default made this receiver: the session implements neither method.
            collector.finish(NetworkError.incompleteSetup(SetupProblem(
                .session,
                "\(type(of: self)) implements neither start(_:options:receiver:) nor start(_:completion:) of NetworkSession; implement one of them"
            )))
            return FinishedSessionTask()
        }
        return start(request) { data, response, error in
            receiver.finish(with: response.flatMap(ResponseHead.init), body: data, error: error)
        }
    }

    /// Collects what `start(_:options:receiver:)` reports and hands it to `completion` whole.
    public func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        start(request, options: ExchangeOptions(), receiver: ExchangeCollector(isCompletionDefault: true) { exchange in
            completion(exchange.body, exchange.head?.urlResponse, exchange.error)
        })
    }
}

/// A request a ``NetworkSession`` has started; `URLSessionTask` is one.
public protocol NetworkSessionTask: Sendable {
    /// Stops the request.
    func cancel()
}

extension URLSessionTask: NetworkSessionTask {}

/// The task of an exchange that has already ended: cancelling it does nothing.
///
/// Return it from a session that reported everything before returning.
@_spi(Transport) public struct FinishedSessionTask: NetworkSessionTask {
    /// A task with nothing left to stop.
    @_spi(Transport) public init() {}

    /// Does nothing: the exchange has ended.
    @_spi(Transport) public func cancel() {}
}
