import Foundation
@_spi(Transport) import Salvo
import Testing

/// Runs `operation`, failing with `TimedOut` if it takes longer than `seconds`.
///
/// The default only stops a hung test: 120 s, far above what any call that works takes on a
/// loaded two-core machine under TSan (the 10 s it was failed there). A test that checks how long
/// something takes states its own bound, far from the bug it catches.
func withTimeout<T: Sendable>(_ seconds: Double = 120, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            throw TimedOut(seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut(seconds: seconds) }
        return first
    }
}

/// A bounded wait ran out.
struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds) s" }
}

/// What `call.response()` produced, bounded in time (120 s by default, a hung test's limit, not a
/// speed check); a timeout is recorded as a test issue.
func result(of call: NetCall, timeout: Double = 120) async -> Result<NetworkResponse, NetworkError> {
    do {
        return .success(try await withTimeout(timeout) { try await call.response() })
    } catch let error as NetworkError {
        return .failure(error)
    } catch {
        Issue.record("\(call.endpoint.method) \(call.endpoint.path): \(error)")
        return .failure(.cancelled)
    }
}
