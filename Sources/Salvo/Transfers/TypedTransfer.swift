import Foundation

/// A fired typed call whose progress you follow while awaiting its decoded value: ``Transfer``
/// for a ``TypedCall``.
///
/// ```swift
/// let upload = api.uploadPhoto(photoURL).transfer()
/// for await progress in upload.progress where progress.direction == .upload {
///     bar.value = progress.fractionCompleted ?? 0
/// }
/// let saved = try await upload.value           // the server's answer, decoded
/// ```
public struct TypedTransfer<Value, ErrorBody>: Sendable {
    /// Upload and download progress while the call runs, as ``Transfer/progress``.
    public var progress: AsyncStream<TransferProgress> { transfer.progress }
    /// The firing, to cancel it or ask whether it finished.
    public var task: NetworkTask { transfer.task }

    private let transfer: Transfer
    private let call: TypedCall<Value, ErrorBody>

    init(_ call: TypedCall<Value, ErrorBody>) {
        self.call = call
        transfer = call.call.transfer()
    }

    /// The untyped response once the call finished, or its error.
    nonisolated(nonsending)
    func result() async -> Result<NetworkResponse, NetworkError> {
        do {
            return .success(try await transfer.response)
        } catch {
            return .failure(error)
        }
    }
}

extension TypedTransfer where Value: Decodable, ErrorBody: Decodable {
    /// The value with its status and headers once the call finished, decoded in the caller's isolation.
    ///
    /// - Throws: ``APIError``, as `TypedCall.response()` does.
    nonisolated(nonsending) public var response: TypedResponse<Value> {
        get async throws(APIError<ErrorBody>) {
            try call.typed(await result()).get()
        }
    }

    /// The value once the call finished, decoded in the caller's isolation.
    ///
    /// - Throws: ``APIError``, as `TypedCall.value()` does.
    nonisolated(nonsending) public var value: Value {
        get async throws(APIError<ErrorBody>) {
            try await response.value
        }
    }
}

extension TypedTransfer where Value == Void, ErrorBody: Decodable {
    /// The status and headers once the call succeeded.
    ///
    /// - Throws: ``APIError``, as `TypedCall.response()` does.
    nonisolated(nonsending) public var response: TypedResponse<Void> {
        get async throws(APIError<ErrorBody>) {
            try call.typed(await result()).get()
        }
    }

    /// Returns once the call succeeded.
    ///
    /// - Throws: ``APIError``, as `TypedCall.value()` does.
    nonisolated(nonsending) public var value: Void {
        get async throws(APIError<ErrorBody>) {
            try await response.value
        }
    }
}

extension TypedCall {
    /// Fires the call and returns its progress and, once it finishes, its decoded value (see ``TypedTransfer``).
    public func transfer() -> TypedTransfer<Value, ErrorBody> {
        TypedTransfer(self)
    }
}
