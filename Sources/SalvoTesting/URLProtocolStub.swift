import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// Stubs answers for tests that must go through a real `URLSession` (its `URLProtocol` loading,
/// request canonicalization, redirects off the table), without a server.
///
/// The stub's protocol class is registered on **its own** session configuration, never globally.
/// Each stub has its own key, carried on every task it starts, so tests running in parallel never
/// see each other's stubs. Fire through ``session`` (or ``firingFunction``), which tags each task.
///
/// ```swift
/// let stub = URLProtocolStub(answering: .json(user))
/// call.firingFunction = stub.firingFunction
/// let value = try await call.value(as: User.self)
/// #expect(stub.requests.first?.url?.path == "/users/42")
/// ```
public final class URLProtocolStub: Sendable {
    /// The key that ties tasks to this stub.
    public let key: String
    /// A real `URLSession` whose configuration loads through the stub.
    public let urlSession: URLSession
    private let state: StubState

    /// A stub answering each request with what `answer` computes, under `conditions`.
    public init(conditions: NetworkConditions = NetworkConditions(), answer: @escaping @Sendable (MockRequest) -> MockResponse) {
        key = "salvo-stub-" + UUID().uuidString
        state = StubState(mock: MockSession(conditions: conditions, answer: answer))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubLoader.self]
        configuration.urlCache = nil
        urlSession = URLSession(configuration: configuration)
        StubLoader.register(state, for: key)
    }

    /// A stub answering every request with `response`.
    public convenience init(answering response: MockResponse) {
        self.init { _ in response }
    }

    /// A stub answering from `routes`; an unmatched request fails naming its method and URL.
    public convenience init(routes: MockRoutes, conditions: NetworkConditions = NetworkConditions()) {
        self.init(conditions: conditions) { routes.response(for: $0) }
    }

    deinit {
        StubLoader.unregister(key)
        urlSession.finishTasksAndInvalidate()
    }

    /// A `NetworkSession` sending through ``urlSession`` with each task tagged for this stub.
    public var session: any NetworkSession { StubbedSession(urlSession: urlSession, key: key) }

    /// `.session(session)`: fire calls through the real `URLSession` and this stub.
    public var firingFunction: FiringFunction { .session(session) }

    /// Makes a data task for `request` on ``urlSession``, tagged for this stub; resume it yourself.
    public func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        let task = urlSession.dataTask(with: request, completionHandler: completionHandler)
        task.taskDescription = key
        return task
    }

    /// The requests the stub answered, as `URLSession` handed them over, bodies included.
    public var requests: [URLRequest] { state.requests }
}

/// Starts tagged data tasks, so the protocol can find the stub.
private struct StubbedSession: NetworkSession {
    let urlSession: URLSession
    let key: String

    func start(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let task = urlSession.dataTask(with: request, completionHandler: completion)
        task.taskDescription = key
        task.resume()
        return task
    }
}
