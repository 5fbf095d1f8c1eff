#if canImport(Combine)
import Combine
#elseif canImport(OpenCombine)
import OpenCombine
#endif
#if canImport(Combine) || canImport(OpenCombine)
import Foundation
import Salvo

extension TypedCall where Value: Decodable & Sendable, ErrorBody: Decodable & SendableMetatype {
    /// A publisher of the decoded value, failing with the error and the server's error body.
    ///
    /// ```swift
    /// api.createIssue(draft).valuePublisher()
    ///     .receive(on: DispatchQueue.main)
    ///     .sink(receiveCompletion: { completion in
    ///         if case .failure(let error) = completion { self.alert(error.body?.message ?? error.localizedDescription) }
    ///     }, receiveValue: { issue in self.show(issue) })
    ///     .store(in: &cancellables)
    /// ```
    ///
    /// The call fires on the subscriber's first demand, through its `firingFunction` and actions,
    /// after its own handlers; see ``CallPublisher``. The failure is ``APIError``, as for `TypedCall.value()`.
    /// The body is decoded on the call's callback queue, so neither type's conformance may be
    /// isolated to an actor.
    public func valuePublisher() -> CallPublisher<Value, APIError<ErrorBody>> {
        CallPublisher { completion in fire(on: call.callbackQueue) { result in completion(result.map(\.value)) } }
    }

    /// A publisher of the whole typed response: the value with its status, header fields and final URL.
    public func responsePublisher() -> CallPublisher<TypedResponse<Value>, APIError<ErrorBody>> {
        CallPublisher { completion in fire(on: call.callbackQueue, completion) }
    }
}
#endif
