import Foundation

/// A value guarded by a lock, so that a reference type can be shared across threads.
///
/// `Mutex` from the Synchronization module would do this, but it needs macOS 15 / iOS 18 and Salvo
/// supports macOS 12 / iOS 15, so this small wrapper over `NSLock` is the one place that does it.
/// It is `package`-visible so that SalvoTesting shares it rather than keeping a copy.
package final class Locked<Value>: @unchecked Sendable {
    // Safe because every read and write of `value` happens inside `lock`; nothing escapes the
    // critical section except copies returned by `withLock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
