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
public struct TypedTransfer<Value: Sendable, ErrorBody: Sendable>: Sendable {
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

    /// The decoded value with its status and headers, once the call finished.
    ///
    /// - Throws: ``APIError``, as ``TypedCall/response()`` does.
    public var response: TypedResponse<Value> {
        get async throws(APIError<ErrorBody>) {
            let result: Result<NetworkResponse, NetworkError>
            do {
                result = .success(try await transfer.response)
            } catch {
                result = .failure(error)
            }
            return try call.typed(result).get()
        }
    }

    /// The decoded value, once the call finished.
    ///
    /// - Throws: ``APIError``, as ``TypedCall/value()`` does.
    public var value: Value {
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
