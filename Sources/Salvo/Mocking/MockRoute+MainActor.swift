import Foundation

extension MockRoute {
    /// A route whose answer is computed on the main actor: for a closure that encodes or decodes
    /// models whose conformances are isolated to it (plain models of an app target with main-actor
    /// default isolation), which an `answer:` closure, called wherever the call is answered,
    /// cannot use.
    ///
    /// ```swift
    /// MockRoute(.post, "/books", onMainActor: { request in
    ///     .json(try? request.decodeBody(as: Book.self), status: 201)   // Book: Codable, main-actor
    /// })
    /// ```
    ///
    /// Called on the main thread, `answer` runs in place; called from another thread, that thread
    /// waits while the main queue runs it, so never block the main thread on a call these routes
    /// answer (a `DispatchSemaphore` wait there would never end).
    ///
    /// - Parameters:
    ///   - method: the HTTP method the route answers.
    ///   - pattern: the path pattern (`/books/:id`, `/files/**`).
    ///   - query: query items the request must have (`"*"` accepts any value).
    ///   - answer: computes the answer from the request, on the main actor.
    @MainActor
    public init(
        _ method: HTTPMethod,
        _ pattern: String,
        query: [String: String] = [:],
        onMainActor answer: @escaping @MainActor @Sendable (MockRequest) -> MockResponse
    ) {
        self.init(method, pattern, query: query, answer: answeringOnMainActor(answer))
    }
}

/// `answer` as a closure the mock session may call from any thread: in place on the main thread,
/// otherwise on the main queue while the caller waits, since a mock answers synchronously.
private func answeringOnMainActor(
    _ answer: @escaping @MainActor @Sendable (MockRequest) -> MockResponse
) -> @Sendable (MockRequest) -> MockResponse {
    { request in
        if isOnMainActor() {
            return MainActor.assumeIsolated { answer(request) }
        }
        return DispatchQueue.main.sync { MainActor.assumeIsolated { answer(request) } }
    }
}
