import Foundation

extension TypedCall {
    /// Fires the call: its responder's handlers run as for ``NetCall/fire()``, then, on the main
    /// actor, the body is decoded and `valueHandler` or `apiErrorHandler` runs. So code that
    /// holds the call as `any Fireable` and never names `Value` fires it with its typed handlers.
    ///
    /// ```swift
    /// var book = api.book(42)                          // TypedCall<Book, Problem>, in the API module
    /// book.valueHandler = { book in model.book = book } // in the view model
    /// let trigger: any Fireable = book                  // in the refresh button
    /// trigger.fire()
    /// ```
    ///
    /// With neither typed handler set it fires exactly as ``call`` does.
    @discardableResult
    public func fire() -> NetworkTask {
        guard let handlers else { return call.fire() }
        let typedCall = self
        let decodeAndRun: @MainActor @Sendable (Result<NetworkResponse, NetworkError>) -> Void = { result in
            handlers.run(with: result, of: typedCall)
        }
        return call.fire(decodeAndRun)
    }
}

extension TypedCall where Value: Decodable, ErrorBody: Decodable {
    /// Receives the decoded value of each successful firing through ``fire()``, `fire(_:)` or
    /// `fire(on:_:)`, on the main actor, after the responder's handlers; set it where the call is
    /// configured or later, from any object.
    ///
    /// ```swift
    /// call.valueHandler = { book in self.book = book }   // a method of a @MainActor view model works too
    /// ```
    ///
    /// The body is decoded on the main actor, so `Value` may be a plain model of an app target
    /// with main-actor default isolation. A body that does not decode goes to `apiErrorHandler`
    /// as ``NetworkError/decoding(_:)``. `value()` and `response()` return the value instead.
    public var valueHandler: (@MainActor @Sendable (Value) -> Void)? {
        get { handlers?.onValue }
        set { setHandlers { $0.onValue = newValue } }
    }

    /// Receives each failed firing through ``fire()``, `fire(_:)` or `fire(on:_:)` with the
    /// server's error body decoded as `ErrorBody`, on the main actor, after the responder's
    /// handlers (its `errorHandler` or `serverErrorHandler` included).
    ///
    /// ```swift
    /// call.apiErrorHandler = { error in self.alert = error.body?.message ?? error.localizedDescription }
    /// ```
    public var apiErrorHandler: (@MainActor @Sendable (APIError<ErrorBody>) -> Void)? {
        get { handlers?.onAPIError }
        set { setHandlers { $0.onAPIError = newValue } }
    }

    private mutating func setHandlers(_ change: (inout Handlers) -> Void) {
        // Made here, where `Value` and `ErrorBody` are known to decode; it runs only on the main actor.
        changeHandlers(typing: { result, call in call.typed(result).map(\.value) }, change)
    }
}

extension TypedCall where Value == Void, ErrorBody: Decodable {
    /// Runs on the main actor after each successful firing through ``fire()``, `fire(_:)` or
    /// `fire(on:_:)`, after the responder's handlers; the body is ignored.
    ///
    /// ```swift
    /// deleteBook.valueHandler = { _ in self.books.removeAll { $0.id == id } }
    /// ```
    public var valueHandler: (@MainActor @Sendable (Value) -> Void)? {
        get { handlers?.onValue }
        set { setHandlers { $0.onValue = newValue } }
    }

    /// Receives each failed firing through ``fire()``, `fire(_:)` or `fire(on:_:)` with the
    /// server's error body decoded as `ErrorBody`, on the main actor, after the responder's handlers.
    public var apiErrorHandler: (@MainActor @Sendable (APIError<ErrorBody>) -> Void)? {
        get { handlers?.onAPIError }
        set { setHandlers { $0.onAPIError = newValue } }
    }

    private mutating func setHandlers(_ change: (inout Handlers) -> Void) {
        changeHandlers(typing: { result, call in call.typed(result).map(\.value) }, change)
    }
}

extension TypedCall {
    /// Applies `change` to the typed handlers, made first with `typing` when none was set.
    mutating func changeHandlers(
        typing: @escaping @MainActor @Sendable (Result<NetworkResponse, NetworkError>, TypedCall) -> Result<Value, APIError<ErrorBody>>,
        _ change: (inout Handlers) -> Void
    ) {
        var changed = handlers ?? Handlers(typing: typing)
        change(&changed)
        handlers = changed
    }

    /// A typed call's value and API-error handlers, with the decoding they need, made where the
    /// handler was set (`valueHandler`'s setter knows that `Value` decodes; ``fire()`` does not).
    struct Handlers: Sendable {
        /// Decodes one outcome of `call` for the handlers; runs on the main actor only.
        let typing: @MainActor @Sendable (Result<NetworkResponse, NetworkError>, TypedCall) -> Result<Value, APIError<ErrorBody>>
        var onValue: (@MainActor @Sendable (Value) -> Void)?
        var onAPIError: (@MainActor @Sendable (APIError<ErrorBody>) -> Void)?

        init(typing: @escaping @MainActor @Sendable (Result<NetworkResponse, NetworkError>, TypedCall) -> Result<Value, APIError<ErrorBody>>) {
            self.typing = typing
        }

        /// Decodes `result` and runs the handler it is for; a failure's body is not decoded when
        /// no `TypedCall/apiErrorHandler` is set.
        @MainActor
        func run(with result: Result<NetworkResponse, NetworkError>, of call: TypedCall) {
            if case .failure = result, onAPIError == nil { return }
            run(typing(result, call))
        }

        /// Runs the handler `typed` is for.
        @MainActor
        func run(_ typed: Result<Value, APIError<ErrorBody>>) {
            switch typed {
            case .success(let value): onValue?(value)
            case .failure(let error): onAPIError?(error)
            }
        }
    }
}
