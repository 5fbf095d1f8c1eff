/// What a ``NetworkSession`` needs to know about one exchange besides its request: how the body is
/// read, and which header fields carry credentials.
///
/// Salvo makes them for each attempt of a call and passes them to
/// `NetworkSession.start(_:options:receiver:)`; a session that wraps another passes them on.
///
/// ```swift
/// let options = ExchangeOptions(readsBodyAsItArrives: true, credentialHeaders: ["X-Api-Key"])
/// _ = session.start(request, options: options, receiver: receiver)
/// ```
///
/// Its name is public so that a session written without `@_spi(Transport)` conforms to
/// ``NetworkSession``; making and reading options is transport API.
public struct ExchangeOptions: Sendable, Hashable {
    /// Whether the body is read as it arrives (a stream, or progress somebody listens to), so a
    /// session should report chunks as they come; `false` lets it collect the body first.
    @_spi(Transport) public var readsBodyAsItArrives: Bool

    /// The request's header fields that carry credentials besides `Authorization`,
    /// `Proxy-Authorization` and `Cookie`, such as the header an ``AuthTokenAction`` of the call
    /// sets: a session that follows a redirect to another origin drops them too
    /// (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`). They belong to this
    /// exchange only; another call's are its own.
    @_spi(Transport) public var credentialHeaders: Set<String>

    /// Options for an exchange whose body may be collected (unless `readsBodyAsItArrives`) and
    /// that protects `credentialHeaders` besides the standard credential fields.
    @_spi(Transport) public init(readsBodyAsItArrives: Bool = false, credentialHeaders: Set<String> = []) {
        self.readsBodyAsItArrives = readsBodyAsItArrives
        self.credentialHeaders = credentialHeaders
    }
}
