import Salvo

extension MockMatcher {
    /// Requests a ``SalvoTransport`` sent for the operation `operationID` (its ``SalvoTransport/operationField``).
    ///
    /// ```swift
    /// MockRoute.get("/greet", .json(greeting)).matching(.operation("getGreeting"))
    /// ```
    public static func operation(_ operationID: String) -> MockMatcher {
        MockMatcher("operation \(operationID)") { request in
            switch request.header(SalvoTransport.operationField) {
            case operationID: nil
            case nil: "it names no operation (is it sent by a SalvoTransport with tagsOperations?)"
            case let other?: "it is operation \(other)"
            }
        }
    }
}

extension MockRoute {
    /// The methods an operation route answers: every method an OpenAPI document can declare.
    static let operationMethods: [HTTPMethod] = [.get, .put, .post, .delete, .options, .head, .patch, .trace]

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
