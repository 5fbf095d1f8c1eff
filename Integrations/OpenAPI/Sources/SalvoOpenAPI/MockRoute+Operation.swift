import Salvo

extension MockMatcher {
    /// Requests a ``SalvoTransport`` sent for the operation `operationID`.
    ///
    /// ```swift
    /// MockRoute.get("/greet", .json(greeting)).matching(.operation("getGreeting"))
    /// ```
    ///
    /// The transport does not name the operation in the request (a server never sees it): mock
    /// firing answers in the task that sends the operation, which knows it.
    public static func operation(_ operationID: String) -> MockMatcher {
        MockMatcher("operation \(operationID)") { request in
            guard let operation = SentOperation.current, operation.isSending(request.request) else {
                return "it is not sent by a SalvoTransport for an operation"
            }
            return operation.id == operationID ? nil : "it is operation \(operation.id)"
        }
    }
}

extension MockRoute {
    /// The methods an operation route answers: every method an OpenAPI document can declare.
    static let operationMethods: [HTTPMethod] = [.get, .put, .post, .delete, "OPTIONS", .head, .patch, "TRACE"]

    /// Routes answering the operation `operationID` with `response`, whatever its path and method.
    ///
    /// ```swift
    /// let routes = MockRoutes(MockRoute.operation("getGreeting", .json(Greeting(message: "Hi"))))
    /// let server = ServerConfig(host: "api.example.com", firingFunction: .mock(routes))
    /// let client = Client(serverURL: url, transport: SalvoTransport(server: server))
    /// ```
    ///
    /// A route for the operation's path and method (`MockRoute.get("/greet", …)`) is more specific
    /// and wins over these when both match.
    public static func operation(_ operationID: String, _ response: MockResponse) -> [MockRoute] {
        operation(operationID) { _ in response }
    }

    /// Routes answering the operation `operationID` with what `answer` makes of each request,
    /// whatever its path and method.
    public static func operation(
        _ operationID: String,
        answer: @escaping @Sendable (MockRequest) -> MockResponse
    ) -> [MockRoute] {
        operationMethods.map { method in
            MockRoute(method, "**", answer: answer).matching(.operation(operationID))
        }
    }
}
