import Foundation

/// A failed call together with the server's error body decoded as your type.
///
/// ```swift
/// struct APIProblem: Decodable { let message: String }
/// do {
///     let user = try await call.value(as: User.self, errorBody: APIProblem.self)
/// } catch {
///     print(error.body?.message ?? error.error.localizedDescription)
/// }
/// ```
///
/// `Body` need not be `Sendable`, so a plain `struct APIProblem: Decodable` of an app target with
/// main-actor default isolation works: its body is decoded in the caller's isolation (or on the
/// responder's queue) and the error carries it from there to the `catch`.
public struct APIError<Body>: Error, @unchecked Sendable {
    // Unchecked because `Body` need not be `Sendable` (a `Sendable` type parameter takes no
    // main-actor-isolated `Decodable` conformance, SE-0470). Safe as far as Salvo goes: both
    // fields are immutable, and the body is a value decoded for this error alone that nothing
    // else holds. A `Body` that is a class shared elsewhere is not protected; error bodies are
    // decoded JSON, so make them structs. No lock: with the body behind `Locked`, a typed-throwing
    // async function that throws this error crashes when built without optimisation (Swift 6.3).

    /// What went wrong.
    public let error: NetworkError
    /// The server's error body, decoded; `nil` when the failure had no body or it did not decode.
    public let body: Body?

    /// An API error from its parts.
    public init(error: NetworkError, body: Body?) {
        self.error = error
        self.body = body
    }
}

extension APIError: LocalizedError {
    /// The underlying error's description.
    public var errorDescription: String? { error.errorDescription }
}
