/// An HTTP request method: the common ones as constants, any other (`"OPTIONS"`, `"PURGE"`) by name.
///
/// ```swift
/// let purge = HTTPMethod("PURGE")
/// let endpoint = Endpoint(method: .patch, path: "/users/42")
/// ```
public struct HTTPMethod: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's name as sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// A method with the given name; names are case-sensitive on the wire and kept as given.
    public init(_ name: String) {
        rawValue = name
    }

    /// A method from a string literal: `let method: HTTPMethod = "PROPFIND"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The method's name.
    public var description: String { rawValue }

    /// `GET`
    public static let get = HTTPMethod("GET")
    /// `POST`
    public static let post = HTTPMethod("POST")
    /// `PUT`
    public static let put = HTTPMethod("PUT")
    /// `PATCH`
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod("DELETE")
    /// `HEAD`
    public static let head = HTTPMethod("HEAD")
    // Rarer methods are their names, as literals: `Endpoint(method: "OPTIONS", path: "/")`.
    /// `OPTIONS`
    static let options = HTTPMethod("OPTIONS")
    /// `TRACE`
    static let trace = HTTPMethod("TRACE")

    /// The methods whose requests have the same effect sent twice as once (RFC 9110 §9.2.2):
    /// `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE`. Retries and reconnections default to them.
    @usableFromInline static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool { Self.idempotentMethods.contains(self) }
}
