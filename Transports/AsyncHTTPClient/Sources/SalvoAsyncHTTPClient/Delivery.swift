import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOFoundationCompat
import Salvo

/// How an exchange's events reach its ``Salvo/ResponseReceiver``, in order, each once.
///
/// A receiver that collects the body (`readsBodyAsItArrives == false`) is called on the event
/// loop at once: it only appends. One that reads the body as it arrives (a stream, a download, a
/// call reporting progress) may write to disk or wake a reader, so it is called from a serial
/// queue of its own, never on the event loop; the future for a chunk completes once the receiver
/// has taken it, and AsyncHTTPClient reads no more of the body until then. That is the whole of
/// the backpressure: the receiver decides how much it buffers (Salvo's stream buffer keeps 4 MiB
/// in memory and the rest on disk), and the network waits while it takes each chunk.
struct Delivery: Sendable {
    private let receiver: any ResponseReceiver
    /// `nil` for a receiver called on the event loop.
    private let queue: DispatchQueue?

    init(_ receiver: any ResponseReceiver) {
        self.receiver = receiver
        queue = receiver.readsBodyAsItArrives ? DispatchQueue(label: "Salvo.AsyncHTTPClientSession.delivery") : nil
    }

    func head(_ head: URLResponse, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        run(on: eventLoop) { $0.receive(head) }
    }

    func chunk(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        // Large parts are handed over without a copy; the Data keeps the buffer's storage alive.
        let chunk = Data(buffer: buffer, byteTransferStrategy: .automatic)
        return run(on: eventLoop) { $0.receive(chunk) }
    }

    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
        guard let queue else { return receiver.didSend(bytesSent, of: bytesExpected) }
        queue.async { [receiver] in receiver.didSend(bytesSent, of: bytesExpected) }
    }

    func finish(_ error: (any Error)?) {
        guard let queue else { return receiver.finish(error) }
        queue.async { [receiver] in receiver.finish(error) }
    }

    private func run(on eventLoop: any EventLoop, _ event: @escaping @Sendable (any ResponseReceiver) -> Void) -> EventLoopFuture<Void> {
        guard let queue else {
            event(receiver)
            return eventLoop.makeSucceededVoidFuture()
        }
        let taken = eventLoop.makePromise(of: Void.self)
        queue.async { [receiver] in
            event(receiver)
            taken.succeed()
        }
        return taken.futureResult
    }
}
