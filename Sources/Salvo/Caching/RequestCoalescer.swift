import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Lets identical requests in flight at once share one exchange (`CachePolicy(_:coalescesRequests:)`).
///
/// The first caller of a key starts the exchange; later callers join it until it ends. Each
/// caller's receiver gets the whole exchange on its own, in the order they joined; a joiner's
/// head is marked ``CacheStatus/coalescingKey`` with the key. Cancelling one caller finishes only
/// that caller (with `URLError(.cancelled)`); cancelling the last one cancels the exchange.
final class RequestCoalescer: Sendable {
    private final class Flight: Sendable {
        struct State {
            var waiters: [(id: Int, receiver: any ResponseReceiver)] = []
            var nextID = 0
            var task: (any NetworkSessionTask)?
            var isCancelled = false
        }

        let state = Locked(State())
    }

    /// The task a caller holds: cancelling it leaves the flight.
    private struct Membership: NetworkSessionTask {
        let coalescer: RequestCoalescer
        let key: String
        let flight: Flight
        let id: Int

        func cancel() { coalescer.leave(flight, key: key, id: id) }
    }

    private let flights = Locked<[String: Flight]>([:])

    /// Adds `receiver` to the exchange in flight for `key`, or starts one with `start`, which
    /// calls its argument once with the exchange's end.
    func join(
        _ key: String,
        receiver: any ResponseReceiver,
        start: (@escaping @Sendable (CollectedExchange) -> Void) -> any NetworkSessionTask
    ) -> any NetworkSessionTask {
        let (flight, id, isLeader) = flights.withLock { flights in
            let flight = flights[key] ?? Flight()
            let isLeader = flights[key] == nil
            flights[key] = flight
            let id = flight.state.withLock { state in
                state.nextID += 1
                state.waiters.append((state.nextID, receiver))
                return state.nextID
            }
            return (flight, id, isLeader)
        }
        if isLeader {
            let task = start { [self] exchange in land(flight, key: key, with: exchange) }
            let cancelled = flight.state.withLock { state in
                state.task = task
                return state.isCancelled
            }
            if cancelled { task.cancel() }
        }
        return Membership(coalescer: self, key: key, flight: flight, id: id)
    }

    /// Hands the exchange's end to every caller still waiting, in the order they joined.
    private func land(_ flight: Flight, key: String, with exchange: CollectedExchange) {
        flights.withLock { flights in
            if flights[key] === flight { flights[key] = nil }
        }
        let waiters = flight.state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let first = waiters.first else { return }
        for (id, receiver) in waiters {
            let shared = id == first.id ? exchange : Self.coalesced(exchange, key: key)
            shared.deliver(to: receiver)
        }
    }

    /// Removes caller `id` from `flight`, finishing it as cancelled; the last one out cancels the exchange.
    private func leave(_ flight: Flight, key: String, id: Int) {
        let (receiver, task) = flight.state.withLock { state -> ((any ResponseReceiver)?, (any NetworkSessionTask)?) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return (nil, nil) }
            let receiver = state.waiters.remove(at: index).receiver
            guard state.waiters.isEmpty else { return (receiver, nil) }
            state.isCancelled = true
            return (receiver, state.task)
        }
        guard let receiver else { return }
        if task != nil || flight.state.withLock({ $0.isCancelled }) {
            // Nobody waits any more: later callers start afresh.
            flights.withLock { flights in
                if flights[key] === flight { flights[key] = nil }
            }
        }
        task?.cancel()
        receiver.finish(URLError(.cancelled))
    }

    /// `exchange` as a caller that joined it receives it: its head marked coalesced under `key`.
    private static func coalesced(_ exchange: CollectedExchange, key: String) -> CollectedExchange {
        guard var head = exchange.head else { return exchange }
        let status = head.cacheStatus ?? CacheStatus(source: .network)
        head.cacheStatus = status.coalesced(under: key)
        var shared = exchange
        shared.head = head
        return shared
    }
}
