import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// The names telemetry gives a call and its outcome: few enough values to be dimensions of a
/// metric or attributes of a span (never a full URL, a query or an identifier).
package enum CallNames {
    /// `host` or `host:port` of the call's server.
    package static func server(of call: NetCall) -> String {
        call.server.port.map { "\(call.server.host):\($0)" } ?? call.server.host
    }

    /// The endpoint's path with every segment that looks like an identifier (digits, a UUID, a
    /// long hexadecimal or token-like string) replaced by `{id}`: `/users/42/posts` is `/users/{id}/posts`.
    package static func endpointTemplate(of call: NetCall) -> String {
        let segments = call.endpoint.path.description.split(separator: "/", omittingEmptySubsequences: false)
        return segments.map { isIdentifier($0) ? "{id}" : String($0) }.joined(separator: "/")
    }

    /// Whether a path segment looks like an identifier rather than a name.
    static func isIdentifier(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.allSatisfy(\.isNumber) { return true }
        if UUID(uuidString: String(segment)) != nil { return true }
        let hasDigit = segment.contains(where: \.isNumber)
        if hasDigit, segment.count >= 12, segment.allSatisfy(\.isHexDigit) { return true }
        return hasDigit && segment.count >= 20
    }

    /// `1xx` … `5xx` for an HTTP response, `none` when none arrived.
    package static func statusClass(of outcome: AttemptOutcome) -> String {
        guard let status = outcome.head?.statusCode else { return "none" }
        return "\(status / 100)xx"
    }

    /// OpenTelemetry's `error.type`: the status code of a response outside 2xx, the kind of
    /// failure otherwise, `nil` on success.
    package static func errorType(of outcome: AttemptOutcome) -> String? {
        if case .success = outcome.result { return nil }
        if let error = outcome.error { return errorType(of: error) }
        return outcome.head.map { String($0.statusCode) } ?? "_OTHER"
    }

    /// The kind of `error`, one word from a short fixed list.
    package static func errorType(of error: NetworkError) -> String {
        if let status = error.statusCode { return String(status) }
        if error.isCancelled { return "cancelled" }
        if case .transport(let urlError) = error {
            return urlError.code == .timedOut ? "timeout" : "transport"
        }
        if case .invalidRequest = error { return "invalid_request" }
        if case .refusedByAction = error { return "refused_by_action" }
        if case .decoding = error { return "decoding" }
        if case .unacceptableResponse = error { return "unacceptable_response" }
        if case .incompleteSetup = error { return "incomplete_setup" }
        return "_OTHER"
    }
}
