import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``NetworkSession`` reports one exchange to, in order: the response head, body chunks,
/// upload progress, and the end.
///
/// Salvo implements it; a session calls it. The calls for one exchange never overlap and come in
/// this order: ``receive(_:)-(ResponseHead)`` at most once, as soon as the status and headers are
/// known; ``receive(_:)-(Data)`` for each body chunk; `didSend(_:of:)`,
/// `didFollowRedirect()` and `didCollect(_:)` any time before the end;
/// then ``finish(_:)`` exactly once, with `nil` when the body arrived whole. A session that has
/// the whole exchange at once may report it with `finish(with:body:error:)` instead.
///
/// A session that has a Foundation `URLResponse` hands it over as it is
/// (`receive(_:)` with a `URLResponse`); one that parses HTTP itself hands over a ``ResponseHead``
/// made from the fields, and no `HTTPURLResponse` is built unless somebody asks for it.
///
/// It is only where the exchange goes: what a session needs to know about the request besides
/// the request itself comes in ``ExchangeOptions``.
///
/// Its name is public so that a session written without `@_spi(Transport)`, implementing only
/// ``NetworkSession/start(_:completion:)``, conforms through the default that reports to it; a
/// session that reports to it itself is transport API, written with `@_spi(Transport) import Salvo`.
public protocol ResponseReceiver: AnyObject, Sendable {
    /// Receives the response head: status, headers and final URL.
    func receive(_ head: ResponseHead)

    /// Receives the next chunk of the body.
    func receive(_ chunk: Data)

    /// Receives upload progress: `bytesSent` of the request body so far, of `bytesExpected` when known.
    @_spi(Transport) func didSend(_ bytesSent: Int64, of bytesExpected: Int64?)

    /// Hears that the session followed a redirect, for ``AttemptMetrics/redirectCount``; call it
    /// before the redirected exchange's head.
    @_spi(Transport) func didFollowRedirect()

    /// Receives the metrics `URLSession` collected for one of its tasks, for
    /// ``AttemptMetrics/taskMetrics``: a session that sends the exchange as several tasks (one per
    /// redirect) reports each task's.
    @_spi(Transport) func didCollect(_ taskMetrics: URLSessionTaskMetrics)

    /// Ends the exchange: `nil` when the whole response arrived, otherwise why it did not.
    func finish(_ error: (any Error)?)

    /// Receives the whole exchange at once and ends it: what a session that has the answer in
    /// hand (a mock's canned answer, a completion handler, a cache hit) reports instead of the
    /// head, the body and ``finish(_:)``.
    ///
    /// By default it makes exactly those calls, the one place they are written: the head if
    /// there is one, the body unless it is absent or empty, then the end with `error`. Salvo's
    /// task turns it into the outcome in one step.
    @_spi(Transport) func finish(with head: ResponseHead?, body: Data?, error: (any Error)?)
}

extension ResponseReceiver {
    /// Receives the response head as Foundation reported it; a response without a URL is no head.
    @_spi(Transport) public func receive(_ head: URLResponse) {
        if let head = ResponseHead(head) { receive(head) }
    }

    /// Ignores upload progress.
    @_spi(Transport) public func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {}

    /// Ignores redirects.
    @_spi(Transport) public func didFollowRedirect() {}

    /// Reports the head (if any), the body (unless absent or empty) and the end, in that order:
    /// "head, body, end", written once for every session and receiver.
    @_spi(Transport) public func finish(with head: ResponseHead?, body: Data?, error: (any Error)?) {
        if let head { receive(head) }
        if let body, !body.isEmpty { receive(body) }
        finish(error)
    }

    /// Receives a whole successful exchange: ``finish(with:body:error:)`` without an error.
    @_spi(Transport) public func finish(with head: ResponseHead, body: Data) {
        finish(with: head, body: body, error: nil)
    }

    /// Ignores task metrics.
    @_spi(Transport) public func didCollect(_ taskMetrics: URLSessionTaskMetrics) {}
}
