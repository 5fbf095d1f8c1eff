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
