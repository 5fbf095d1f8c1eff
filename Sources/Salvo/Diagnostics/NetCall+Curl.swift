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
    /// let call = NetCall(server: api, endpoint: .post("/notes", json: note))
    /// logger.debug("\(try call.curlCommand())")
    /// ```
    ///
    /// - Parameter redacted: hide what ``Redaction/default`` hides, and the header of each
    ///   ``AuthTokenAction`` of the call; `false` shows every secret.
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the call cannot build a request.
    public func curlCommand(redacted: Bool = true) throws(NetworkError) -> String {
        try curlCommand(redaction: redacted ? .default : Redaction())
    }

    /// A `curl` command for this call's request with `redaction` applied; a redaction that hides
    /// `Authorization` also hides the header of each ``AuthTokenAction`` of the call.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the call cannot build a request.
    public func curlCommand(redaction: Redaction) throws(NetworkError) -> String {
        try urlRequest().curlCommand(redaction: redaction.hidingCredentials(of: self))
    }
}
