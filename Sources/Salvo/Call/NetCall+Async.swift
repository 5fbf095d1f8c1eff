import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// Fires the call through its ``firingFunction`` and returns the successful response.
    ///
    /// Mock and replay firing drive this exactly like production firing. The call's own responder
    /// is not used: the outcome is the return value or the thrown error. Cancelling the Swift task
    /// cancels the request and throws ``NetworkError/cancelled``.
    ///
    /// - Throws: ``NetworkError``: `.serverStatus` for a status outside 200–299, `.transport`,
    ///   `.invalidRequest`, or `.cancelled`.
    nonisolated(nonsending)
    public func response() async throws(NetworkError) -> NetworkResponse {
        try await result().get()
    }

    /// Fires the call and decodes the successful body as `T`.
    ///
    /// ```swift
    /// let user = try await userCall.value(as: User.self)
    /// ```
    ///
    /// The body arrives as bytes and is decoded in the caller's isolation, so `T` need not be
    /// `Sendable` and its `Decodable` conformance may be isolated to the caller's actor (a plain
    /// `struct User: Codable` in an app target with main-actor default isolation).
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder; `nil` (the default) uses the server's ``ServerConfig/decoder``.
    /// - Throws: ``NetworkError``; `.decoding` carries the body that did not decode.
    @inlinable // specialised for `T` in the caller's module
    nonisolated(nonsending)
    public func value<T: Decodable>(as type: T.Type = T.self, decoder: JSONDecoder? = nil) async throws(NetworkError) -> T {
        let response = try await response()
        return try decode(type, from: response.data, decoder: decoder ?? server.decoder).get()
    }

    /// Fires the call and decodes the successful body as `T`, or the failure's body as `E`, in
    /// the caller's isolation.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - errorBody: the type a failure's body decodes to.
    ///   - decoder: the decoder for both; `nil` (the default) uses the server's ``ServerConfig/decoder``.
    /// - Throws: ``APIError`` whose `body` is the server's error body decoded as `E`, or `nil`
    ///   when there was none or it did not decode.
    nonisolated(nonsending)
    public func value<T: Decodable, E: Decodable>(
        as type: T.Type = T.self,
        errorBody: E.Type,
        decoder: JSONDecoder? = nil
    ) async throws(APIError<E>) -> T {
        let decoder = decoder ?? server.decoder
        do {
            return try await value(as: type, decoder: decoder)
        } catch {
            throw APIError(error: error, body: decodeErrorBody(E.self, of: error, decoder: decoder))
        }
    }

    /// The outcome of one firing through the firing function, as one `Result`.
    nonisolated(nonsending)
    func result() async -> Result<NetworkResponse, NetworkError> {
        if Task.isCancelled { return .failure(.cancelled) }
        let handle = TaskHandle()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let once = Locked<CheckedContinuation<Result<NetworkResponse, NetworkError>, Never>?>(continuation)
                handle.attach(fire(reporting: { result in
                    once.withLock { pending in
                        defer { pending = nil }
                        return pending
                    }?.resume(returning: result)
                }))
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// Holds the task of an async firing so that Swift task cancellation, which may come first, reaches it.
private final class TaskHandle: Sendable {
    private let state = Locked<(task: NetworkTask?, isCancelled: Bool)>((nil, false))

    func attach(_ task: NetworkTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        state.withLock { state in
            state.isCancelled = true
            return state.task
        }?.cancel()
    }
}
