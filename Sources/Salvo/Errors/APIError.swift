import Foundation

/// A failed call together with the server's error body decoded as your type.
///
/// Its `localizedDescription` is a short message for the person using the app (no URL, no
/// body); `description`, which `print`, string interpolation, `String(describing:)` and Swift
/// Testing's "Caught error:" show, is the full developer description, secrets redacted.
///
/// ```swift
/// struct APIProblem: Decodable { let message: String }
/// do {
///     let user = try await TypedCall<User, APIProblem>(call).value()
/// } catch {
///     logger.error("\(error)")
///     alert = error.body?.message ?? error.localizedDescription
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
    // decoded JSON, so make them structs. No lock: with the body behind one (`Locked`, or a
    // private final class holding an `NSLock`), a typed-throwing async function that throws this
    // error crashes when built without optimisation (Swift 6.3.1: `swift_retain` on a bad pointer
    // in `initializeWithCopy for APIError`; seen in `swift test` on 2026-11-25).

    /// What went wrong.
    public let error: NetworkError
    /// The server's error body, decoded; `nil` when the failure had no body or it did not decode.
    /// After a failed token renewal (``NetworkError/isRenewalFailure``) it is the renewal
    /// endpoint's error body.
    public let body: Body?

    /// An API error from its parts.
    @_spi(Transport) public init(error: NetworkError, body: Body?) {
        self.error = error
        self.body = body
    }
}

extension APIError: LocalizedError {
    /// A short message for the person using the app: the underlying error's
    /// ``NetworkError/userMessage``, with no URL and no body.
    public var errorDescription: String? { error.userMessage }
}

extension APIError: CustomStringConvertible {
    /// The underlying error's full description (URL, status, body; secrets redacted), for logs,
    /// test failures, `debugPrint` and `String(reflecting:)`.
    public var description: String { error.description }
}

extension APIError: NetworkErrorCarrier {
    var networkError: NetworkError { error }
}
