import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 5: production firing against raw `URLSession.data(for:)`, over loopback HTTP.
///
/// Both sides use the same `URLSession` (no cache) and fetch the same 64-byte body. The raw side's
/// request is built once up front; the Salvo side builds its request on every call, so Salvo is
/// charged for request building, its pipeline and its async bridge.
public struct HTTPFiring: Sendable {
    /// The route fetched by both sides.
    public static let bodySize = 64

    private let call: NetCall
    private let request: URLRequest
    private let session: URLSession

    /// A workload against the loopback server at `baseURL`, `maxConnections` connections at most;
    /// `viaAsyncData` fires Salvo through ``AsyncDataSession`` instead of the URLSession itself.
    public init(baseURL: URL, maxConnections: Int = 16, viaAsyncData: Bool = false) throws {
        let configuration = URLSessionConfiguration.uncached()
        configuration.httpMaximumConnectionsPerHost = maxConnections
        let session = URLSession(configuration: configuration)
        self.session = session
        let server = try ServerConfig(baseURL: baseURL.absoluteString)
        call = NetCall(
            server: server,
            endpoint: .get("/bytes", query: ["n": String(Self.bodySize)]),
            callbackQueue: .immediate,
            firingFunction: viaAsyncData ? .session(AsyncDataSession(session)) : .session(session)
        )
        request = try call.urlRequest()
    }

    /// One Salvo request: `NetCall.response()`.
    public func salvoOnce() async throws {
        let response = try await call.response()
        guard response.data.count == Self.bodySize else { throw WorkloadError("Salvo got \(response.data.count) bytes") }
    }

    /// One raw request: `URLSession.data(for:)` plus the status check every caller needs.
    public func rawOnce() async throws {
        let (data, response) = try await session.data(for: request)
        try Self.checkRaw(data, response)
    }

    /// The status check every raw caller needs, and the body size both sides must get.
    private static func checkRaw(_ data: Data, _ response: URLResponse) throws {
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw WorkloadError("raw request failed: \(response)")
        }
        guard data.count == bodySize else { throw WorkloadError("raw got \(data.count) bytes") }
    }

    /// One raw request through a completion-handler data task, the transport Salvo's production
    /// firing uses: on Linux its handler runs on the session's delegate queue, as Salvo's does.
    public func rawCompletionHandlerOnce() async throws {
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let data, let response {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
        try Self.checkRaw(data, response)
    }

    /// Runs `count` raw completion-handler requests, `concurrency` at a time.
    public func rawCompletionHandler(count: Int, concurrency: Int) async throws {
        try await runConcurrently(count: count, concurrency: concurrency) { try await rawCompletionHandlerOnce() }
    }

    /// Runs `count` Salvo requests, `concurrency` at a time.
    public func salvo(count: Int, concurrency: Int) async throws {
        try await runConcurrently(count: count, concurrency: concurrency) { try await salvoOnce() }
    }

    /// Runs `count` raw requests, `concurrency` at a time.
    public func raw(count: Int, concurrency: Int) async throws {
        try await runConcurrently(count: count, concurrency: concurrency) { try await rawOnce() }
    }
}
