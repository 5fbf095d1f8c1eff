import Foundation

/// Which part of a call made it impossible to build a request, and why: the payload of
/// ``NetworkError/invalidRequest(_:)``.
public struct RequestProblem: Sendable, Hashable, CustomStringConvertible {
    /// The part of the request that is wrong.
    public enum Part: String, Sendable, Hashable, CaseIterable {
        /// The URL scheme of the server.
        case scheme
        /// The server host.
        case host
        /// The server port.
        case port
        /// The HTTP method.
        case method
        /// The base path or the endpoint path.
        case path
        /// A query item.
        case query
        /// A header name or value.
        case header
        /// The request body.
        case body
        /// The assembled URL.
        case url
    }

    /// The part of the request that is wrong.
    public let part: Part
    /// What is wrong with it, in words a person can act on.
    public let reason: String

    /// Describes a problem with one part of a request.
    @_spi(Transport) public init(_ part: Part, _ reason: String) {
        self.part = part
        self.reason = reason
    }

    /// `"invalid <part>: <reason>"`.
    public var description: String { "invalid \(part.rawValue): \(reason)" }
}
