import Foundation

/// Why an offline or test setup could not answer a request: no mock route matches it, a mock
/// answer or fixture cannot be used, or a session implements neither of its methods.
///
/// It arrives as ``NetworkError/incompleteSetup(_:)``, apart from ``NetworkError/invalidRequest(_:)``,
/// so a test or an offline app can tell "my mocks are incomplete" from "my request is wrong":
///
/// ```swift
/// catch .incompleteSetup(let problem) where problem.part == .route {
///     Issue.record("add a mock route: \(problem.reason)")
/// }
/// ```
public struct SetupProblem: Sendable, Hashable, CustomStringConvertible {
    /// The piece of the setup that could not answer.
    public enum Part: String, Sendable, Hashable, CaseIterable {
        /// No mock route matches the request (the reason names the closest routes), or a route's
        /// sequence of answers is used up.
        case route
        /// A mock answer that cannot be made: a value that does not encode as JSON, a resource
        /// missing from its bundle.
        case mock
        /// A record/replay or mock fixture: missing, empty, not JSON, not in the expected format,
        /// or a fixture mode that is not one.
        case fixture
        /// A ``NetworkSession`` that implements neither of its `start` methods.
        case session
    }

    /// The piece of the setup that could not answer.
    public let part: Part
    /// What is missing or wrong, and what to add or change.
    public let reason: String

    /// Describes why one piece of the setup could not answer.
    @_spi(Transport) public init(_ part: Part, _ reason: String) {
        self.part = part
        self.reason = reason
    }

    /// `"<part> setup: <reason>"`.
    public var description: String { "\(part.rawValue) setup: \(reason)" }
}
