import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``NetworkSession`` reports one exchange to, in order: the response head, body chunks,
/// upload progress, and the end.
///
/// Salvo implements it; a session calls it. The calls for one exchange never overlap and come in
/// this order: ``receive(_:)-(ResponseHead)`` at most once, as soon as the status and headers are
/// known; ``receive(_:)-(Data)`` for each body chunk; ``didSend(_:of:)`` and
/// ``didFollowRedirect()`` any time before the end;
/// then ``finish(_:)`` exactly once, with `nil` when the body arrived whole.
///
/// A session that has a Foundation `URLResponse` hands it over as it is
/// (``receive(_:)-(URLResponse)``); one that parses HTTP itself hands over a ``ResponseHead``
/// made from the fields, and no `HTTPURLResponse` is built unless somebody asks for it.
@_spi(Transport) public protocol ResponseReceiver: AnyObject, Sendable {
    /// Whether the body is read as it arrives (a stream), so a session should report chunks as
    /// they come rather than after the whole body; `false` lets it collect the body first.
    var readsBodyAsItArrives: Bool { get }

    /// The request's header fields that carry credentials besides `Authorization`,
    /// `Proxy-Authorization` and `Cookie`, such as the header an ``AuthTokenAction`` of the call
    /// sets: a session that follows a redirect to another origin drops them too
    /// (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`). They belong to this
    /// exchange only; another call's are its own.
    var credentialHeaders: Set<String> { get }

    /// Receives the response head: status, headers and final URL.
    func receive(_ head: ResponseHead)

    /// Receives the next chunk of the body.
    func receive(_ chunk: Data)

    /// Receives upload progress: `bytesSent` of the request body so far, of `bytesExpected` when known.
    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?)

    /// Hears that the session followed a redirect, for ``AttemptMetrics/redirectCount``; call it
    /// before the redirected exchange's head.
    func didFollowRedirect()

    /// Ends the exchange: `nil` when the whole response arrived, otherwise why it did not.
    func finish(_ error: (any Error)?)
}

extension ResponseReceiver {
    /// `false`: the body may be collected before it is reported.
    @_spi(Transport) public var readsBodyAsItArrives: Bool { false }

    /// None: only the headers every request protects.
    @_spi(Transport) public var credentialHeaders: Set<String> { [] }

    /// Receives the response head as Foundation reported it; a response without a URL is no head.
    @_spi(Transport) public func receive(_ head: URLResponse) {
        if let head = ResponseHead(head) { receive(head) }
    }

    /// Ignores upload progress.
    @_spi(Transport) public func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {}

    /// Ignores redirects.
    @_spi(Transport) public func didFollowRedirect() {}
}
