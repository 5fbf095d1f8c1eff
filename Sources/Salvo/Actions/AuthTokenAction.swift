import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds `Authorization: Bearer <token>` to requests for endpoints that require authentication.
///
/// The token comes from your provider on every attempt, so a retry after a refresh carries the
/// new one. It is added only when the endpoint says ``Endpoint/requiresAuthentication`` and the
/// request goes to the server the action was made for (same scheme, host and port): a token is
/// never sent to another host, even when a call to one lists this action. A `nil` token sends
/// the request without the header. When the server redirects to another origin, the session
/// drops the header before following (see ``FiringFunction/production``).
///
/// ```swift
/// var api = ServerConfig(host: "api.example.com")
/// api.actions = [AuthTokenAction(for: api) { await session.accessToken }]
/// let me = NetCall(server: api, endpoint: Endpoint.get("/me").requiringAuthentication())
/// ```
public struct AuthTokenAction: NetworkAction {
    /// The header that carries the credential, `Authorization` by default.
    public let headerName: String
    /// The word before the token, `Bearer` by default; empty sends the bare token.
    public let scheme: String
    private let origin: Origin
    private let token: @Sendable () async throws -> String?

    /// An action adding the provider's token to authenticated requests to `server`.
    ///
    /// - Parameters:
    ///   - server: the only server that receives the token (its scheme, host and port).
    ///   - headerName: the header to set, e.g. `"X-Api-Key"`.
    ///   - scheme: the prefix before the token, e.g. `"Token"`; `""` for none.
    ///   - token: returns the current token, or `nil` when there is none; throwing fails the call.
    public init(
        for server: ServerConfig,
        headerName: String = "Authorization",
        scheme: String = "Bearer",
        token: @escaping @Sendable () async throws -> String?
    ) {
        self.headerName = headerName
        self.scheme = scheme
        self.origin = Origin(scheme: server.scheme, host: server.host, port: server.port)
        self.token = token
        RedirectGuard.protectHeader(headerName)
    }

    /// Sets the header when the endpoint requires authentication and the request goes to the server.
    public func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
        guard call.endpoint.requiresAuthentication, let url = request.url, origin.matches(url) else {
            return request
        }
        guard let token = try await token(), !token.isEmpty else { return request }
        guard !token.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
            throw NetworkError.invalidRequest(RequestProblem(.header, "the token for \(headerName) contains a line break or NUL"))
        }
        var request = request
        request.setValue(scheme.isEmpty ? token : "\(scheme) \(token)", forHTTPHeaderField: headerName)
        return request
    }
}
