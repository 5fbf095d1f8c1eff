extension NetCall {
    /// Fires the call and hands its outcome to `completion` as one `Result`, on the main actor,
    /// after the call's own handlers.
    ///
    /// ```swift
    /// call.fire { result in
    ///     switch result {
    ///     case .success(let response): self.show(response.data)
    ///     case .failure(let error): self.show(error)
    ///     }
    /// }
    /// ```
    ///
    /// `completion` runs exactly once per firing, in place on the default ``CallbackQueue/main``,
    /// otherwise handed to the main queue.
    @discardableResult
    public func fire(_ completion: @escaping @MainActor @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkTask {
        fire(on: callbackQueue, mainActorHandler(completion))
    }

    /// Fires the call with every handler, `completion` last, on `queue` instead of the call's
    /// ``callbackQueue``: for code that is not on the main actor.
    @discardableResult
    public func fire(
        on queue: CallbackQueue,
        _ completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> NetworkTask {
        var call = self
        call.callbackQueue = queue
        call.responder.append(.reporting(completion))
        return call.fire()
    }
}

extension TypedCall {
    /// Fires the call and hands the decoded value, or the error with its decoded error body, to
    /// `completion` on the main actor, after the call's own handlers.
    ///
    /// ```swift
    /// createIssue.fire { result in
    ///     switch result {
    ///     case .success(let issue): self.show(issue)
    ///     case .failure(let error): self.alert(error.body?.message ?? error.localizedDescription)
    ///     }
    /// }
    /// ```
    ///
    /// `completion` runs exactly once per firing; the body is decoded on the call's callback queue.
    @discardableResult
    public func fire(_ completion: @escaping @MainActor @Sendable (Result<Value, APIError<ErrorBody>>) -> Void) -> NetworkTask {
        fire(on: call.callbackQueue, mainActorHandler(completion))
    }

    /// Fires the call with `completion` on `queue` instead of the main actor.
    @discardableResult
    public func fire(
        on queue: CallbackQueue,
        _ completion: @escaping @Sendable (Result<Value, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        fireForResponse(on: queue) { completion($0.map(\.value)) }
    }

    /// Fires the call and hands the whole typed response (value, status, headers, final URL), or
    /// the error, to `completion` on the main actor, after the call's own handlers.
    @discardableResult
    public func fireForResponse(
        _ completion: @escaping @MainActor @Sendable (Result<TypedResponse<Value>, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        fireForResponse(on: call.callbackQueue, mainActorHandler(completion))
    }

    /// Fires the call with `completion` receiving the whole typed response on `queue`.
    @discardableResult
    public func fireForResponse(
        on queue: CallbackQueue,
        _ completion: @escaping @Sendable (Result<TypedResponse<Value>, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        call.fire(on: queue) { result in completion(typed(result)) }
    }
}
