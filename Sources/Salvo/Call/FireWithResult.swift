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
        firing(self, .responder(responder, on: queue, then: completion))
    }
}

extension TypedCall where Value: Decodable, ErrorBody: Decodable {
    /// Fires the call and hands the typed response (the decoded value with its status, header
    /// fields and final URL), or the error with its decoded error body, to `completion` on the
    /// main actor, after the call's own handlers (its responder's, then `valueHandler` or
    /// `apiErrorHandler`): the callback form of `response()`.
    ///
    /// ```swift
    /// createIssue.fire { result in
    ///     switch result {
    ///     case .success(let response): self.show(response.value)
    ///     case .failure(let error): self.alert(error.body?.message ?? error.localizedDescription)
    ///     }
    /// }
    /// ```
    ///
    /// `completion` runs exactly once per firing; the body is decoded on the main actor, so
    /// `Value` may be a plain model of an app target with main-actor default isolation.
    @discardableResult
    public func fire(
        _ completion: @escaping @MainActor @Sendable (Result<TypedResponse<Value>, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        // Made here, on the main actor's side: the decoding in it runs only there, once for the
        // typed handlers and the completion.
        let decodeAndComplete: @MainActor @Sendable (Result<NetworkResponse, NetworkError>) -> Void = { [handlers] result in
            let typed = typed(result)
            handlers?.run(typed.map(\.value))
            completion(typed)
        }
        return call.fire(decodeAndComplete)
    }
}

extension TypedCall where Value: Decodable & SendableMetatype, ErrorBody: Decodable & SendableMetatype {
    /// Fires the call with `completion` on `queue` instead of the main actor; the body is decoded
    /// there, so neither type's `Decodable` conformance may be isolated to an actor. The typed
    /// handlers, when set, are handed to the main actor first and decode there.
    @discardableResult
    public func fire(
        on queue: CallbackQueue,
        _ completion: @escaping @Sendable (Result<TypedResponse<Value>, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        call.fire(on: queue) { result in
            handOnToTypedHandlers(result)
            completion(typed(result))
        }
    }
}

extension TypedCall where Value == Void, ErrorBody: Decodable {
    /// Fires the call and hands the typed response (status, header fields, final URL), or the
    /// error with its decoded error body, to `completion` on the main actor, after the call's own
    /// handlers.
    @discardableResult
    public func fire(
        _ completion: @escaping @MainActor @Sendable (Result<TypedResponse<Void>, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        // Made here, on the main actor's side: the decoding in it runs only there, once for the
        // typed handlers and the completion.
        let decodeAndComplete: @MainActor @Sendable (Result<NetworkResponse, NetworkError>) -> Void = { [handlers] result in
            let typed = typed(result)
            handlers?.run(typed.map(\.value))
            completion(typed)
        }
        return call.fire(decodeAndComplete)
    }
}

extension TypedCall where Value == Void, ErrorBody: Decodable & SendableMetatype {
    /// Fires the call with `completion` on `queue` instead of the main actor; the typed handlers,
    /// when set, are handed to the main actor first.
    @discardableResult
    public func fire(
        on queue: CallbackQueue,
        _ completion: @escaping @Sendable (Result<TypedResponse<Void>, APIError<ErrorBody>>) -> Void
    ) -> NetworkTask {
        call.fire(on: queue) { result in
            handOnToTypedHandlers(result)
            completion(typed(result))
        }
    }
}

extension TypedCall {
    /// Hands `result` to the typed handlers on the main actor, if any is set: `fire(on:_:)`'s
    /// completion runs on its queue, the handlers where they decode.
    func handOnToTypedHandlers(_ result: Result<NetworkResponse, NetworkError>) {
        guard let handlers else { return }
        runOnMainActor { [self] in handlers.run(with: result, of: self) }
    }

    /// What a controller made from this call (``Refresher``, ``Pager``) hands each outcome to so
    /// that ``valueHandler`` and ``apiErrorHandler`` run as when the call fires; `nil` when
    /// neither is set.
    var typedHandOff: (@Sendable (Result<NetworkResponse, NetworkError>) -> Void)? {
        guard handlers != nil else { return nil }
        return { [self] result in handOnToTypedHandlers(result) }
    }
}
