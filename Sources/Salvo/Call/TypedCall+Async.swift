extension TypedCall where Value: Decodable, ErrorBody: Decodable {
    /// Fires the call through its firing function and returns the value, decoded in the caller's
    /// isolation.
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
    nonisolated(nonsending)
    public func value() async throws(APIError<ErrorBody>) -> Value {
        try await response().value
    }

    /// Fires the call and returns the value, decoded in the caller's isolation, with the status,
    /// header fields and final URL.
    ///
    /// ```swift
    /// let issues = try await listIssues.response()
    /// let next = issues.headers["Link"]
    /// ```
    ///
    /// - Throws: ``APIError``, as `value()` does.
    nonisolated(nonsending)
    public func response() async throws(APIError<ErrorBody>) -> TypedResponse<Value> {
        try typed(await call.result()).get()
    }
}

extension TypedCall where Value == Void, ErrorBody: Decodable {
    /// Fires the call through its firing function; returns once it succeeded, its body ignored.
    ///
    /// ```swift
    /// try await deleteBook.value()
    /// ```
    ///
    /// - Throws: ``APIError``: its `error` is the ``NetworkError``, its `body` the server's error
    ///   body decoded as `ErrorBody`, or `nil`.
    nonisolated(nonsending)
    public func value() async throws(APIError<ErrorBody>) {
        try await response().value
    }

    /// Fires the call and returns its status, header fields and final URL once it succeeded.
    ///
    /// - Throws: ``APIError``, as `value()` does.
    nonisolated(nonsending)
    public func response() async throws(APIError<ErrorBody>) -> TypedResponse<Void> {
        try typed(await call.result()).get()
    }
}
