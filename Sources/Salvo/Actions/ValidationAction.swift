import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fails a successful response whose status or content type the endpoint does not accept.
///
/// On the server (``ServerConfig/actions``) it applies to every call; on a call
/// (``NetCall/actions``) it applies to that call and replaces the server's validation, so an
/// image endpoint can accept `image/png` on a JSON API.
///
/// Statuses outside 200–299 are failures before any action runs, so `statusCodes` can only
/// narrow that range (e.g. `[200]` to refuse a `204`). A refused status fails the call with
/// ``NetworkError/serverStatus(_:)``; a refused content type with
/// ``NetworkError/unacceptableResponse(_:)``. Failed responses are left to the responder.
///
/// ```swift
/// api.actions = [ValidationAction(contentTypes: ["application/json"])]
/// var avatar = NetCall(server: api, endpoint: .get("/me/avatar"))
/// avatar.actions = [ValidationAction(contentTypes: ["image/*"])]
/// ```
public struct ValidationAction: NetworkAction {
    /// Accepted statuses; `nil` accepts every 2xx.
    var statusCodes: Set<Int>?
    /// Accepted media types such as `application/json`, `image/*` or `*/*`, compared without
    /// parameters and case-insensitively; `nil` accepts any. Only a body is checked: an empty
    /// response (204, 205, HEAD, any empty 2xx) passes whatever its `Content-Type`.
    ///
    /// A type the call asks for by name in its endpoint's `Accept` header is accepted too, so
    /// ``NetCall/events(resumingAfter:reconnection:maximumLineLength:)``, which asks for
    /// `text/event-stream`, works on a server validating JSON.
    var contentTypes: [String]?

    /// A validation accepting `statusCodes` and `contentTypes`; `nil` accepts any.
    public init(statusCodes: Set<Int>? = nil, contentTypes: [String]? = nil) {
        self.statusCodes = statusCodes
        self.contentTypes = contentTypes
    }

    /// Accepts JSON: `application/json` and `+json` types such as `application/problem+json`.
    public static let json = ValidationAction(contentTypes: ["application/json", "application/*+json"])

    /// Fails the call when a successful response has an unaccepted status or content type.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        guard outcome.error == nil, let http = outcome.httpResponse, (200..<300).contains(http.statusCode) else {
            return .proceed
        }
        if isOverridden(for: call) { return .proceed }
        if let statusCodes, !statusCodes.contains(http.statusCode) {
            return .fail(.serverStatus(ResponseProblem(response: http, body: outcome.data)))
        }
        if let reason = contentTypeProblem(
            http.value(forHTTPHeaderField: "Content-Type"),
            hasBody: Self.hasBody(http, outcome: outcome, for: call),
            askedFor: call.endpoint.headers["Accept"]
        ) {
            return .fail(.unacceptableResponse(ResponseProblem(reason, outcome: outcome)))
        }
        return .proceed
    }

    /// A server-level validation steps aside when the call brings its own.
    private func isOverridden(for call: NetCall) -> Bool {
        call.actions.contains { $0 is ValidationAction }
            && !call.actions.contains { ($0 as? ValidationAction) == self }
    }

    /// Whether the response has a body to check. 204, 205 and the answer to a HEAD never have one
    /// (RFC 9110), whatever their headers; a streamed head, whose body has not arrived yet, has
    /// one unless its `Content-Length` is 0 (an unknown length is -1).
    private static func hasBody(_ http: HTTPURLResponse, outcome: AttemptOutcome, for call: NetCall) -> Bool {
        if http.statusCode == 204 || http.statusCode == 205 || call.endpoint.method == .head { return false }
        return outcome.isStreamedHead ? http.expectedContentLength != 0 : !(outcome.data ?? Data()).isEmpty
    }

    /// A content type describes a body: without one (204, 205, HEAD, any empty 2xx) there is
    /// nothing to check, whatever `Content-Type` the server sent along.
    ///
    /// - Parameter accept: the call's own `Accept` header, whose named types (not wildcards) are accepted.
    private func contentTypeProblem(_ header: String?, hasBody: Bool, askedFor accept: String?) -> String? {
        guard let contentTypes, !contentTypes.isEmpty, hasBody else { return nil }
        guard let header else {
            return "the response has no Content-Type; expected \(contentTypes.joined(separator: ", "))"
        }
        // Two Content-Type fields arrive joined ("a/b, c/d"), which is no media type either.
        guard let type = MediaType(header) else {
            return "Content-Type \"\(header)\" is not a media type; expected \(contentTypes.joined(separator: ", "))"
        }
        let askedFor = (accept ?? "").split(separator: ",").compactMap { MediaType(String($0)) }.filter { !$0.isWildcard }
        guard (contentTypes.compactMap(MediaType.init) + askedFor).contains(where: { $0.accepts(type) }) else {
            return "content type \(type) is not accepted; expected \(contentTypes.joined(separator: ", "))"
        }
        return nil
    }
}

/// Equal when they accept the same statuses and content types.
extension ValidationAction: Equatable {}

/// A media type without parameters, lowercased: `type/subtype`, where either may be `*` and a
/// subtype may be a `*+suffix` pattern.
struct MediaType: CustomStringConvertible {
    let type: Substring
    let subtype: Substring

    init?(_ text: String) {
        let essence = text.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        type = parts[0]
        subtype = parts[1]
    }

    var description: String { "\(type)/\(subtype)" }

    /// Whether it is a pattern (`*/*`, `text/*`, `application/*+json`) rather than one type.
    var isWildcard: Bool { type == "*" || subtype.hasPrefix("*") }

    /// Whether this pattern accepts `other`.
    func accepts(_ other: MediaType) -> Bool {
        guard type == "*" || type == other.type else { return false }
        if subtype == "*" || subtype == other.subtype { return true }
        if subtype.hasPrefix("*+") { return other.subtype.hasSuffix(subtype.dropFirst()) }
        return false
    }
}
