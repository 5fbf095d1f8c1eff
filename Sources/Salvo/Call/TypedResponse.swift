import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A successful response with its body decoded: the value, and the status, header fields and
/// final URL it came with (rate limits, ETags, pagination headers).
///
/// ```swift
/// let page = try await issuesCall.response()
/// show(page.value)
/// rateLimit = page.headers["X-RateLimit-Remaining"]
/// ```
///
/// Every property of the undecoded ``NetworkResponse`` reads through it (``subscript(dynamicMember:)``).
@dynamicMemberLookup
public struct TypedResponse<Value> {
    /// The decoded body.
    public let value: Value
    /// The undecoded response: its head and body bytes, read through ``subscript(dynamicMember:)``.
    let response: NetworkResponse

    /// A typed response from its parts.
    @_spi(Transport) public init(value: Value, response: NetworkResponse) {
        self.value = value
        self.response = response
    }

    /// The properties of the undecoded ``NetworkResponse``, read through: `statusCode`,
    /// `headers`, `url`, `links`, `data`, `metrics`, `cacheStatus`.
    ///
    /// ```swift
    /// let issues = try await listIssues.response()
    /// issues.statusCode                  // 200
    /// issues.links.target(forRelation: "last")
    /// ```
    public subscript<Property>(dynamicMember keyPath: KeyPath<NetworkResponse, Property>) -> Property {
        response[keyPath: keyPath]
    }
}

extension TypedResponse: Sendable where Value: Sendable {}
