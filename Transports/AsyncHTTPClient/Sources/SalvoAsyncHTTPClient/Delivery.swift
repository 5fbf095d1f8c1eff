import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
@_spi(Transport) import Salvo

/// How a streamed exchange's events reach its ``Salvo/ResponseReceiver``, in order, each once.
///
/// A receiver that reads the body as it arrives (`ExchangeOptions.readsBodyAsItArrives`: a stream,
/// a download, a call reporting progress) may write to disk or wake a reader, so it is called
/// from a serial queue of the exchange's own, never on the event loop. A body read whole needs
/// none of this: the ``Exchange`` keeps it and reports it with the end.
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
///
/// A class: the exchange holds it optionally (`nil` for a body read whole) and reads it for every
/// chunk, so one reference to retain rather than a value of three.
final class Delivery: Sendable {
    /// Bytes that may wait for the receiver before the network is held back: 1 MiB.
    static let window = 1 << 20

    /// Parts from this size on are handed over without a copy: 16 KiB.
    static let largePart = 16 << 10

    private let receiver: any ResponseReceiver
    /// The queue the receiver is called on.
    private let queue = DispatchQueue(label: "Salvo.AsyncHTTPClientSession.delivery")
    /// The bytes handed to the queue and not yet taken by the receiver.
    private let waiting = NIOLockedValueBox(0)

    init(_ receiver: any ResponseReceiver) {
        self.receiver = receiver
    }

    /// `buffer`'s bytes as `Data`. A large part is handed over without a copy (the `Data` keeps
    /// the buffer's storage alive): copying each 64 KiB part of a streamed body cost more than
    /// everything else Salvo does with it. A small part is copied, so a receiver keeping it does
    /// not keep a whole read buffer alive for a few bytes.
    static func data(_ buffer: ByteBuffer) -> Data {
        Data(buffer: buffer, byteTransferStrategy: buffer.readableBytes >= largePart ? .noCopy : .copy)
    }

    /// Appends `buffer` to `body`, a body read whole.
    static func append(_ buffer: ByteBuffer, to body: inout Data?) {
        guard body != nil else {
            body = data(buffer)
            return
        }
        buffer.withUnsafeReadableBytes { body?.append(contentsOf: $0) }
    }

    func head(_ head: ResponseHead, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        queue.async { [receiver] in receiver.receive(head) }
        return eventLoop.makeSucceededVoidFuture()
    }

    func chunk(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let chunk = Self.data(buffer)
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
        queue.async { [receiver] in receiver.didSend(bytesSent, of: bytesExpected) }
    }

    /// Tells the receiver a redirect was followed, in order with the other events.
    func didFollowRedirect() {
        queue.async { [receiver] in receiver.didFollowRedirect() }
    }

    func finish(_ error: (any Error)?) {
        queue.async { [receiver] in receiver.finish(error) }
    }
}
