import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A fired call whose progress you follow as an `AsyncSequence` while awaiting its response.
///
/// ```swift
/// let upload = call.transfer()
/// for await progress in upload.progress {
///     bar.value = progress.fractionCompleted ?? 0
/// }
/// let response = try await upload.response
/// ```
///
/// `progress` carries every report (at most 10 a second per direction, so a reader that falls
/// behind holds a few small values, never a flood), ends when the call does, and carries 100%
/// exactly once per direction when the call succeeds. The call goes through its firing function and actions like any
/// firing; its own responder and callback queue are not used.
public struct Transfer: Sendable {
    /// Upload and download progress while the call runs.
    public let progress: AsyncStream<TransferProgress>
    /// The firing, to cancel it or ask whether it finished.
    public let task: NetworkTask
    private let outcome: TransferOutcome

    /// The response once the call finished, or the error it failed with.
    public var response: NetworkResponse {
        get async throws(NetworkError) {
            try await outcome.value()
        }
    }

    init(_ call: NetCall) {
        let (progress, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .unbounded)
        let outcome = TransferOutcome()
        let task = call.fire(reporting: { result in
            outcome.resolve(with: result)
            continuation.finish()
        }, progress: { continuation.yield($0) })
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        self.progress = progress
        self.task = task
        self.outcome = outcome
    }
}

extension NetCall {
    /// Fires the call and returns its progress and, once it finishes, its response (see ``Transfer``).
    public func transfer() -> Transfer {
        Transfer(self)
    }
}

/// The one result of a transfer, awaited by any number of readers.
private final class TransferOutcome: Sendable {
    private let state = Locked<(result: Result<NetworkResponse, NetworkError>?, waiters: [CheckedContinuation<Result<NetworkResponse, NetworkError>, Never>])>((nil, []))

    func resolve(with result: Result<NetworkResponse, NetworkError>) {
        let waiters = state.withLock { state in
            guard state.result == nil else { return [CheckedContinuation<Result<NetworkResponse, NetworkError>, Never>]() }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume(returning: result) }
    }

    func value() async throws(NetworkError) -> NetworkResponse {
        let result = await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<NetworkResponse, NetworkError>? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }
}
