#if canImport(Combine)
import Combine
#elseif canImport(OpenCombine)
import OpenCombine
#endif
#if canImport(Combine) || canImport(OpenCombine)
import Foundation
import Salvo

extension NetCall {
    /// A publisher of the call's successful response: its head and body.
    ///
    /// ```swift
    /// call.responsePublisher()
    ///     .sink(receiveCompletion: { completion in … }, receiveValue: { response in show(response.data) })
    /// ```
    ///
    /// The call fires on the subscriber's first demand, through its `firingFunction` and actions,
    /// after its own handlers; see ``CallPublisher``. It fails with `NetworkError`: `.serverStatus`
    /// for a status outside 200–299, `.transport`, `.invalidRequest` or `.cancelled`.
    public func responsePublisher() -> CallPublisher<NetworkResponse, NetworkError> {
        CallPublisher { completion in fire(on: callbackQueue, completion) }
    }

    /// A publisher of the call's successful body decoded as `T`.
    ///
    /// ```swift
    /// userCall.valuePublisher(as: User.self)
    ///     .replaceError(with: .guest)
    ///     .assign(to: \.user, on: model)
    /// ```
    ///
    /// `T` is `Sendable` because the value crosses from the call's callback queue to whatever
    /// queue a subscriber receives on. For a model whose `Decodable` conformance is isolated to the
    /// main actor, publish ``responsePublisher()`` and decode where you receive it, or `await`
    /// ``NetCall/value(as:decoder:)``, which decodes in the caller's isolation.
    ///
    /// - Parameters:
    ///   - type: the value's type.
    ///   - decoder: decodes the body, like ``NetCall/value(as:decoder:)``; `nil` uses the server's.
    /// - Returns: a publisher failing with `NetworkError`; `.decoding` carries the body that did not decode.
    public func valuePublisher<T: Decodable & Sendable>(as type: T.Type = T.self, decoder: JSONDecoder? = nil) -> CallPublisher<T, NetworkError> {
        let typed = TypedCall<T, UnreadErrorBody>(self, decoder: decoder)
        return CallPublisher { completion in
            typed.fire(on: callbackQueue) { result in completion(result.map(\.value).mapError(\.error)) }
        }
    }

    /// A publisher of the call's successful body decoded as `T`, failing with the server's error
    /// body decoded as `E`.
    ///
    /// ```swift
    /// call.valuePublisher(as: User.self, errorBody: APIProblem.self)
    ///     .sink(receiveCompletion: { completion in
    ///         if case .failure(let error) = completion { alert(error.body?.message) }
    ///     }, receiveValue: { user in … })
    /// ```
    ///
    /// - Returns: a publisher failing with `APIError<E>`, whose `body` is `nil` when the failure
    ///   had no body or it was not an `E`.
    public func valuePublisher<T: Decodable & Sendable, E: Decodable & SendableMetatype>(
        as type: T.Type = T.self,
        errorBody: E.Type,
        decoder: JSONDecoder? = nil
    ) -> CallPublisher<T, APIError<E>> {
        TypedCall<T, E>(self, decoder: decoder).valuePublisher()
    }
}

/// The error body of a value publisher that fails with the bare `NetworkError`: never decoded.
///
/// Not `Never`, whose `Decodable` conformance needs macOS 14 / iOS 17 on Apple platforms.
private struct UnreadErrorBody: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(Self.self, .init(codingPath: decoder.codingPath, debugDescription: "the error body is not read"))
    }
}
#endif
