import Foundation
@_spi(Transport) import Salvo
import Testing

/// Runs `operation`, failing with `TimedOut` if it takes longer than `seconds`.
func withTimeout<T: Sendable>(_ seconds: Double = 10, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
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

/// What `call.response()` produced, bounded in time; a timeout is recorded as a test issue.
func result(of call: NetCall, timeout: Double = 10) async -> Result<NetworkResponse, NetworkError> {
    do {
        return .success(try await withTimeout(timeout) { try await call.response() })
    } catch let error as NetworkError {
        return .failure(error)
    } catch {
        Issue.record("\(call.endpoint.method) \(call.endpoint.path): \(error)")
        return .failure(.cancelled)
    }
}
