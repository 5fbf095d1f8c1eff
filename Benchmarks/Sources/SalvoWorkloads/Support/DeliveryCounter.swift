import Foundation

/// Counts deliveries, to check before measuring that a workload's handler really runs.
final class DeliveryCounter: @unchecked Sendable {
    // Safe: `count` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
