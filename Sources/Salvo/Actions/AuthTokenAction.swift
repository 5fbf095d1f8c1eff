import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds `Authorization: Bearer <token>` to requests for endpoints that require authentication.
///
/// The token comes from your provider on every attempt, so a retry after a token renewal carries the
/// new one. It is added only when the call needs it (``NetCall/requiresAuthentication``: the
/// endpoint's ``Endpoint/requiresAuthentication``, else its server's) and the
/// request goes to the origin (scheme, host and port) of the call's own ``NetCall/server``,
/// decided each time the call fires: swapping environments is one value swap, and a request
/// whose URL leaves that origin, such as a paging link to another host, gets no token. Made
/// with ``init(for:headerName:scheme:token:)``, the action instead sends the token only to the
/// one server it was made for. A `nil` token sends the request without the header.
///
/// The header is a credential of the calls that run this action, and of those only: when the
/// server redirects such a call to another origin, the session drops the header before
/// following (see ``FiringFunction/production``), and a ``LoggingAction`` or
/// ``NetCall/curlCommand(redaction:)`` that hides `Authorization` hides it too. Another call,
/// whose actions set no such header, sends and shows a header of that name as any other:
/// only `Authorization`, `Proxy-Authorization` and `Cookie` are credentials of every request.
///
/// ```swift
/// var production = ServerConfig(host: "api.example.com")
/// production.actions = [AuthTokenAction { await session.accessToken }]
/// var staging = production
/// staging.host = "staging.example.com"      // the token now goes to staging, and only there
/// let me = NetCall(server: staging, endpoint: Endpoint.get("/me").requiringAuthentication())
/// ```
public struct AuthTokenAction: NetworkAction {
    /// The header that carries the credential, `Authorization` by default.
    let headerName: String
    /// The word before the token, `Bearer` by default; empty sends the bare token.
    let scheme: String
    /// The one origin that receives the token; nil means the origin of the call being fired.
    private let pinnedOrigin: Origin?
    private let token: @Sendable () async throws -> String?

    /// An action adding the provider's token to authenticated requests: to the server each call
    /// is fired at or, given a `server`, to that server only, whatever server a call lists it on
    /// (for a token that belongs to one fixed host).
    ///
    /// - Parameters:
    ///   - server: the only server that receives the token (its scheme, host and port; a `ws` or
    ///     `wss` server also pins the `http`/`https` origin of its handshake); `nil` for the
    ///     server of each call.
    ///   - headerName: the header to set, e.g. `"X-Api-Key"`.
    ///   - scheme: the prefix before the token, e.g. `"Token"`; `""` for none.
    ///   - token: returns the current token, or `nil` when there is none; throwing fails the call.
    public init(
        for server: ServerConfig? = nil,
        headerName: String = "Authorization",
        scheme: String = "Bearer",
        token: @escaping @Sendable () async throws -> String?
    ) {
        self.headerName = headerName
        self.scheme = scheme
        pinnedOrigin = server.map { Origin(scheme: $0.scheme, host: $0.host, port: $0.port) }
        self.token = token
    }

    /// Sets the header when the endpoint requires authentication and the request goes to the token's origin.
    public func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        guard call.requiresAuthentication, let url = request.url,
              (pinnedOrigin ?? Origin(scheme: call.server.scheme, host: call.server.host, port: call.server.port)).matches(url) else {
            return request
        }
        guard let token = try await token(), !token.isEmpty else { return request }
        guard !token.breaksHeaderLine else {
            throw NetworkError.invalidRequest(RequestProblem(.header, "the token for \(headerName) contains a line break or NUL"))
        }
        var request = request
        request.setValue(scheme.isEmpty ? token : "\(scheme) \(token)", forHTTPHeaderField: headerName)
        return request
    }
}

extension AuthTokenAction {
    /// The headers, lowercased, that the auth actions among `actions` set: the credentials of a
    /// call that runs them, kept on their origin and hidden in its logs.
    static func headers(setBy actions: [any NetworkAction]) -> Set<String> {
        Set(actions.lazy.compactMap { ($0 as? AuthTokenAction)?.headerName.lowercased() })
    }
}
