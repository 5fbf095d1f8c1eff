extension NetCall {
    /// Whether this call needs credentials: its endpoint's ``Endpoint/requiresAuthentication`` when
    /// the endpoint says, otherwise its server's ``ServerConfig/requiresAuthentication``.
    ///
    /// ```swift
    /// var api = ServerConfig(host: "api.example.com", requiresAuthentication: true)
    /// api.actions = [AuthTokenAction { await session.accessToken }]
    /// NetCall(server: api, endpoint: .get("/me")).requiresAuthentication                                      // true
    /// NetCall(server: api, endpoint: Endpoint.post("/login").requiringAuthentication(false)).requiresAuthentication   // false
    /// ```
    public var requiresAuthentication: Bool {
        endpoint.requiresAuthentication ?? server.requiresAuthentication
    }
}
