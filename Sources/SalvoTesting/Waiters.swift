import Foundation
@_spi(Transport) import Salvo

/// Lets async code wait, with a time limit, for a condition another thread makes true.
///
/// Each waiter resumes exactly once: when ``signal()`` finds its condition true, or at its deadline.
///
/// ```swift
/// let isDelivered = Locked(false)
/// let waiters = Waiters()
/// call.responder.dataHandler = { _ in isDelivered.withLock { $0 = true }; waiters.signal() }
/// call.fire()
/// #expect(await waiters.wait(timeout: 5) { isDelivered.withLock { $0 } })
/// ```
public final class Waiters: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable () -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let waiters = Locked<[UUID: Waiter]>([:])

    /// No one waiting yet.
    public init() {}

    /// Waits until `isSatisfied` holds (checked now and on every ``signal()``) or `timeout` seconds pass.
    ///
    /// - Returns: whether the condition held before the deadline.
    public func wait(timeout: TimeInterval, until isSatisfied: @escaping @Sendable () -> Bool) async -> Bool {
        if isSatisfied() { return true }
        let id = UUID()
        return await withCheckedContinuation { continuation in
            waiters.withLock { $0[id] = Waiter(isSatisfied: isSatisfied, continuation: continuation) }
            signal()
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [waiters] in
                waiters.withLock { $0.removeValue(forKey: id) }?.continuation.resume(returning: false)
            }
        }
    }

    /// Resumes every waiter whose condition now holds.
    public func signal() {
        let ready = waiters.withLock { waiters in
            let ids = waiters.filter { $0.value.isSatisfied() }.map(\.key)
            return ids.compactMap { waiters.removeValue(forKey: $0) }
        }
        ready.forEach { $0.continuation.resume(returning: true) }
    }
}
