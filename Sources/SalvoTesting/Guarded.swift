import Foundation

/// A value behind a lock, for this module's shared state (Salvo's own `Locked` is internal to Salvo).
final class Guarded<Value>: @unchecked Sendable {
    // Safe because `value` is only read or written inside `lock`; callers get copies out.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
