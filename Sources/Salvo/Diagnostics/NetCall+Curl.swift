import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// A `curl` command that sends this call's request, secrets redacted by default.
    ///
    /// It shows the request as the call builds it, before actions adapt it (an auth action's
    /// token is not in it); for the request as sent, log with ``LoggingAction`` or use
    /// `outcome.request?.curlCommand()` in an action.
    ///
    /// ```swift
    /// let call = NetCall(server: api, endpoint: .post("/notes", body: .json(note)))
    /// logger.debug("\(try call.curlCommand())")
    /// ```
    ///
    /// - Parameter redaction: what to hide: ``Redaction/default`` (the default) plus the header of
    ///   each ``AuthTokenAction`` of the call, as does any redaction that hides `Authorization`;
    ///   ``Redaction/none`` shows every secret.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the call cannot build a request.
    public func curlCommand(redaction: Redaction = .default) throws(NetworkError) -> String {
        try urlRequest().curlCommand(redaction: redaction.hidingCredentials(of: self))
    }
}
