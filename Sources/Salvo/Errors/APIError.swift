import Foundation

/// A failed call together with the server's error body decoded as your type.
///
/// ```swift
/// struct APIProblem: Decodable, Sendable { let message: String }
/// do {
///     let user = try await call.value(as: User.self, errorBody: APIProblem.self)
/// } catch {
///     print(error.body?.message ?? error.error.localizedDescription)
/// }
/// ```
public struct APIError<Body: Sendable>: Error, Sendable {
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
