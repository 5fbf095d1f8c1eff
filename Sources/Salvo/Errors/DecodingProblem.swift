import Foundation

/// A body that could not be decoded into the type the caller asked for.
///
/// ```swift
/// catch .decoding(let problem) {
///     log("\(problem.typeName): \(problem.underlying)", body: problem.body)
/// }
/// ```
public struct DecodingProblem: Sendable {
    /// The decoder's own error (usually a `DecodingError`).
    public let underlying: any Error
    /// The body that failed to decode.
    public let body: Data
    /// The type the body was decoded into.
    public let typeName: String

    /// Describes a failed decode of `body` into `type`.
    @usableFromInline
    init<T>(_ underlying: any Error, body: Data, type: T.Type) {
        self.underlying = underlying
        self.body = body
        self.typeName = String(describing: type)
    }
}
