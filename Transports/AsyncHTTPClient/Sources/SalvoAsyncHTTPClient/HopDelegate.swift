import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import Salvo

/// AsyncHTTPClient's delegate for one hop of an ``Exchange``: hands the head and body to the
/// exchange, or drops the body of a redirect the exchange follows once the hop ends.
///
/// AsyncHTTPClient calls it on the exchange's event loop, one call at a time, and reads the next
/// body part only once the future returned for the previous one has completed.
final class HopDelegate: HTTPClientResponseDelegate {
    typealias Response = Void

    private let request: URLRequest
    private let expectedUpload: Int64?
    private let exchange: Exchange

    init(request: URLRequest, expectedUpload: Int64?, exchange: Exchange) {
        self.request = request
        self.expectedUpload = expectedUpload
        self.exchange = exchange
    }

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        exchange.didSend(part.readableBytes, of: expectedUpload)
    }

    /// A second visit means the client followed a redirect itself, with its own rules rather than
    /// Salvo's: the exchange ends before that request gets an answer.
    func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        guard exchange.noteVisit() > 1 else { return }
        exchange.fail(with: TransportError.clientFollowsRedirects(at: request.url), stopping: task)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        exchange.noteActivity()
        switch exchange.decide(on: head, of: request) {
        case .deliver(let response):
            return exchange.deliver(response)
        case .follow:
            break
        case .fail(let error):
            exchange.fail(with: error, stopping: task)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        exchange.noteActivity()
        guard exchange.redirect == nil else { return task.eventLoop.makeSucceededVoidFuture() }
        return exchange.deliver(buffer)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
}
