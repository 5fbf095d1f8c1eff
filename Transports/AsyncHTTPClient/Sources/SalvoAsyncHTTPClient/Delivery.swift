import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
@_spi(Transport) import Salvo

/// How an exchange's events reach its ``Salvo/ResponseReceiver``, in order, each once.
///
/// A receiver that collects the body (`ExchangeOptions.readsBodyAsItArrives` false) is called on the event
/// loop at once: it only appends. One that reads the body as it arrives (a stream, a download, a
/// call reporting progress) may write to disk or wake a reader, so it is called from a serial
/// queue of the exchange's own, never on the event loop.
///
/// **Backpressure.** Up to ``window`` bytes may wait on that queue; beyond it, the future for a
/// chunk completes only once the receiver has taken it, and AsyncHTTPClient reads no more of the
/// body until then (the socket's buffers fill and TCP slows the server down). The receiver decides
/// what it keeps: Salvo's stream buffer keeps 4 MiB in memory and the rest on disk. The window is
/// not zero because AsyncHTTPClient drops body parts it holds for a delegate that has not taken
/// them when the connection fails: with a window, every part it offered before a dropped
/// connection reaches the receiver before the error. Parts it had not offered yet are lost with
/// the connection (seen under load; Docs/Linux.md): a Server-Sent Events stream then resumes from
/// an earlier event, and the server sends the rest again.
struct Delivery: Sendable {
    /// Bytes that may wait for the receiver before the network is held back: 1 MiB.
    static let window = 1 << 20

    /// Parts from this size on are handed over without a copy: 16 KiB.
    static let largePart = 16 << 10

    private let receiver: any ResponseReceiver
    /// The queue the receiver is called on, and the bytes handed to it and not yet taken by the
    /// receiver; `nil` for a receiver called on the event loop.
    private let queued: (queue: DispatchQueue, waiting: NIOLockedValueBox<Int>)?

    /// The queue the receiver is called on; `nil` for a receiver called on the event loop.
    private var queue: DispatchQueue? { queued?.queue }

    init(_ receiver: any ResponseReceiver, readsBodyAsItArrives: Bool) {
        self.receiver = receiver
        queued = readsBodyAsItArrives ? (DispatchQueue(label: "Salvo.AsyncHTTPClientSession.delivery"), NIOLockedValueBox(0)) : nil
    }

    func head(_ head: ResponseHead, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        guard let queue else {
            receiver.receive(head)
            return eventLoop.makeSucceededVoidFuture()
        }
        queue.async { [receiver] in receiver.receive(head) }
        return eventLoop.makeSucceededVoidFuture()
    }

    func chunk(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        // A large part is handed over without a copy (the Data keeps the buffer's storage alive):
        // copying each 64 KiB part of a streamed body cost more than everything else Salvo does
        // with it. A small part is copied, so a receiver keeping it does not keep a whole read
        // buffer alive for a few bytes.
        let strategy: ByteBuffer.ByteTransferStrategy = buffer.readableBytes >= Self.largePart ? .noCopy : .copy
        let chunk = Data(buffer: buffer, byteTransferStrategy: strategy)
        guard let (queue, waiting) = queued else {
            receiver.receive(chunk)
            return eventLoop.makeSucceededVoidFuture()
        }
        let isOverWindow = waiting.withLockedValue { waiting in
            waiting += chunk.count
            return waiting > Self.window
        }
        let taken = isOverWindow ? eventLoop.makePromise(of: Void.self) : nil
        queue.async { [receiver, waiting] in
            receiver.receive(chunk)
            waiting.withLockedValue { $0 -= chunk.count }
            taken?.succeed()
        }
        return taken?.futureResult ?? eventLoop.makeSucceededVoidFuture()
    }

    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
        guard let queue else { return receiver.didSend(bytesSent, of: bytesExpected) }
        queue.async { [receiver] in receiver.didSend(bytesSent, of: bytesExpected) }
    }

    /// Tells the receiver a redirect was followed, in order with the other events.
    func didFollowRedirect() {
        guard let queue else { return receiver.didFollowRedirect() }
        queue.async { [receiver] in receiver.didFollowRedirect() }
    }

    func finish(_ error: (any Error)?) {
        guard let queue else { return receiver.finish(error) }
        queue.async { [receiver] in receiver.finish(error) }
    }
}
