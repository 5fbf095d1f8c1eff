import Foundation

/// Runs `work` on the cooperative pool and waits for it on this (the main) thread.
func blocking(_ work: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
        do { try await work() } catch { failure.error = error }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw error }
}

/// The error of a blocking run, published to the waiter by the semaphore.
final class FailureBox: @unchecked Sendable {
    // Safe: written by the task before it signals, read after the wait returns.
    var error: (any Error)?
}
