import Foundation

/// A fired typed call whose progress you follow while awaiting its typed response: ``Transfer``
/// for a ``TypedCall``.
///
/// ```swift
/// let upload = api.uploadPhoto(photoURL).transfer()
/// for await progress in upload.progress where progress.direction == .upload {
///     bar.value = progress.fractionCompleted ?? 0
/// }
/// let saved = try await upload.response.value     // the server's answer, decoded
/// ```
///
/// The transfer's `progress` and `task` read through (``subscript(dynamicMember:)``).
@dynamicMemberLookup
public struct TypedTransfer<Value, ErrorBody>: Sendable {
    private let transfer: Transfer
    private let call: TypedCall<Value, ErrorBody>

    init(_ call: TypedCall<Value, ErrorBody>) {
        self.call = call
        transfer = call.call.transfer()
    }

    /// The untyped transfer's `progress` (upload and download progress while the call runs) and
    /// `task` (the firing, to cancel it or ask whether it finished).
    public subscript<Property>(dynamicMember keyPath: KeyPath<Transfer, Property>) -> Property {
        transfer[keyPath: keyPath]
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
}

extension TypedCall {
    /// Fires the call and returns its progress and, once it finishes, its typed response (see ``TypedTransfer``).
    public func transfer() -> TypedTransfer<Value, ErrorBody> {
        TypedTransfer(self)
    }
}
