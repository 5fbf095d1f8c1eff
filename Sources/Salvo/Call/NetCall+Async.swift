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
    /// To decode a failure's body as your error type too, use a ``TypedCall``:
    /// `try await TypedCall<User, APIProblem>(userCall).value()` throws ``APIError``.
    ///
    /// - Throws: ``NetworkError``; `.decoding` carries the body that did not decode.
    @inlinable // specialised for `T` in the caller's module
    nonisolated(nonsending)
    public func value<T: Decodable>(as type: T.Type = T.self, decoder: JSONDecoder? = nil) async throws(NetworkError) -> T {
        let response = try await response()
        return try decode(type, from: response.data, decoder: decoder ?? server.decoder).get()
    }

    /// The outcome of one firing through the firing function, as one `Result`: the task keeps
    /// it until this caller takes it, so an answer made before the firing function returned (a
    /// mock's) is taken without waiting.
    nonisolated(nonsending)
    func result() async -> Result<NetworkResponse, NetworkError> {
        if Task.isCancelled { return .failure(.cancelled) }
        return await firing(self, .awaiting()).outcome()
    }

    /// Fires the call through its firing function with `completion` receiving the outcome as one
    /// `Result` on whatever thread it is made, and `progress` the transfer's progress: the channel
    /// of the async API, ``Transfer``, the pager and ``Refresher``.
    func fire(
        reporting completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> NetworkTask {
        firing(self, .result(completion, progress: progress))
    }
}
