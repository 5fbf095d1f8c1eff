import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A whole exchange as a session reported it (head, body, end): what the default
/// ``NetworkSession/start(_:completion:)`` hands its completion, and what the cache decides on
/// before anybody sees it, then hands on whole (`ResponseReceiver.finish(with:body:error:)`).
struct CollectedExchange: Sendable {
    var head: ResponseHead?
    var body: Data?
    var error: (any Error)?

    /// Reports the exchange to `receiver` whole, in the order ``ResponseReceiver`` promises.
    func deliver(to receiver: any ResponseReceiver) {
        receiver.finish(with: head, body: body, error: error)
    }

    /// This exchange with its head marked `status` (a head from the store keeps its own mark).
    func marked(_ status: (ResponseHead) -> CacheStatus) -> CollectedExchange {
        guard var head, head.cacheStatus == nil else { return self }
        head.cacheStatus = status(head)
        var marked = self
        marked.head = head
        return marked
    }
}

/// A receiver that collects the exchange and calls `done` once at its end: the one behind the
/// default ``NetworkSession/start(_:completion:)``, and the one the cache gives a session.
final class ExchangeCollector: ResponseReceiver {
    /// Whether the default ``NetworkSession/start(_:completion:)`` made it: a session handed one
    /// by the other default implements neither method.
    let isCompletionDefault: Bool
    private let done: @Sendable (CollectedExchange) -> Void
    private let collected = Locked(CollectedExchange())

    /// A collector that calls `done` at the end.
    init(isCompletionDefault: Bool = false, done: @escaping @Sendable (CollectedExchange) -> Void) {
        self.isCompletionDefault = isCompletionDefault
        self.done = done
    }

    func receive(_ head: ResponseHead) {
        collected.withLock { $0.head = head }
    }

    func receive(_ chunk: Data) {
        collected.withLock { exchange in
            if exchange.body == nil { exchange.body = chunk } else { exchange.body?.append(chunk) }
        }
    }

    func finish(_ error: (any Error)?) {
        let exchange = collected.withLock { exchange in
            exchange.error = error
            if exchange.head != nil, exchange.body == nil { exchange.body = Data() }
            return exchange
        }
        done(exchange)
    }
}
