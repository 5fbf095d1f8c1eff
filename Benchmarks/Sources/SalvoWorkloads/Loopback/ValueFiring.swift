import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 5v (issue 28): the ways an app fires one small JSON GET, against raw
/// `URLSession.data(for:)` plus the decode every caller of it writes, over loopback HTTP.
///
/// Every side fetches the loopback server's `/status/200` (a 55-byte JSON object) through the same
/// `URLSession` (no cache) and decodes it into ``Status``. The Salvo sides are
/// `value(as:)` and `fire()` with a `.main` callback queue, whose handler decodes on the main
/// thread; for that side the process must service the main queue (an async `main` does).
public struct ValueFiring: Sendable {
    /// What the route answers; both sides decode it.
    public struct Status: Decodable, Equatable, Sendable {
        public let status: Int
        public let message: String
    }

    /// The body every side must decode.
    public static let expected = Status(status: 200, message: "OK")

    private let call: NetCall
    private let request: URLRequest
    private let session: URLSession

    /// A workload against the loopback server at `baseURL`, `maxConnections` connections at most.
    public init(baseURL: URL, maxConnections: Int = 16) throws {
        let configuration = URLSessionConfiguration.uncached()
        configuration.httpMaximumConnectionsPerHost = maxConnections
        session = URLSession(configuration: configuration)
        call = NetCall(
            server: try ServerConfig(baseURL: baseURL.absoluteString),
            endpoint: .get("/status/200"),
            callbackQueue: .main,
            firingFunction: .session(session)
        )
        request = try call.urlRequest()
    }

    /// One Salvo request: `value(as:)`, decoded in the caller's isolation.
    public func valueOnce() async throws {
        try Self.check(try await call.value(as: Status.self))
    }

    /// One Salvo request: `fire()` with a `dataHandler` that decodes on the main queue, awaited
    /// through a continuation the handler (or the error handler) resumes.
    public func fireOnMainOnce() async throws {
        let status: Status = try await withCheckedThrowingContinuation { continuation in
            var call = call
            call.responder = NetworkResponder(
                dataHandler: { data in continuation.resume(with: Result { try JSONDecoder().decode(Status.self, from: data) }) },
                errorHandler: { continuation.resume(throwing: $0) }
            )
            call.fire()
        }
        try Self.check(status)
    }

    /// One raw request: `URLSession.data(for:)`, the status check and the decode.
    public func rawOnce() async throws {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw WorkloadError("raw request failed: \(response)")
        }
        try Self.check(try JSONDecoder().decode(Status.self, from: data))
    }

    /// One raw request through a completion-handler data task, the transport Salvo's production
    /// firing uses (its handler runs on the session's delegate queue), with the same decode: the
    /// floor corelibs sets for that transport.
    public func rawCompletionHandlerOnce() async throws {
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let data, let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) {
                    continuation.resume(returning: data)
                } else {
                    continuation.resume(throwing: error ?? WorkloadError("raw task failed: \(String(describing: response))"))
                }
            }.resume()
        }
        try Self.check(try JSONDecoder().decode(Status.self, from: data))
    }

    /// Fails unless every side decodes the same status.
    public func checkEquivalence() async throws {
        try await valueOnce()
        try await fireOnMainOnce()
        try await rawOnce()
        try await rawCompletionHandlerOnce()
    }

    private static func check(_ status: Status) throws {
        guard status == expected else { throw WorkloadError("decoded \(status), expected \(expected)") }
    }
}
