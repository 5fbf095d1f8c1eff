extension TypedCall {
    /// Fires the call through its firing function and returns the decoded value.
    ///
    /// ```swift
    /// let issue = try await createIssue.value()
    /// ```
    ///
    /// Like ``NetCall/response()``, the call's own responder is not used, and cancelling the Swift
    /// task cancels the request.
    ///
    /// - Throws: ``APIError``: its `error` is the ``NetworkError`` (`.decoding` when the body is not
    ///   a `Value`), its `body` the server's error body decoded as `ErrorBody`, or `nil`.
    public func value() async throws(APIError<ErrorBody>) -> Value {
        try await response().value
    }

    /// Fires the call and returns the decoded value with the status, header fields and final URL.
    ///
    /// ```swift
    /// let issues = try await listIssues.response()
    /// let next = issues.headers["Link"]
    /// ```
    ///
    /// - Throws: ``APIError``, as ``value()`` does.
    public func response() async throws(APIError<ErrorBody>) -> TypedResponse<Value> {
        let result: Result<NetworkResponse, NetworkError>
        do {
            result = .success(try await call.response())
        } catch {
            result = .failure(error)
        }
        return try typed(result).get()
    }
}
