import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import Salvo
import SalvoAsyncHTTPClient

/// Benchmarks 11 and 12: Salvo over its AsyncHTTPClient transport against raw AsyncHTTPClient
/// and raw URLSession, all three fetching the same files from nginx on loopback.
///
/// Every side gets the same small JSON file (11) or the same 512 MiB file (12). The raw sides'
/// requests are built once; Salvo builds its request on every call, so it is charged for request
/// building, its pipeline and its async bridge, as in benchmark 5.
public final class ServerSideFiring: Sendable {
    /// The small JSON body: 64 bytes, as in benchmark 5.
    public static let smallBody = Data(#"{"id":42,"title":"Dune","author":"Frank Herbert","year":1965,"x":1}"#.utf8).prefix(64)

    /// Bytes of the large file (benchmark 12).
    public let byteCount: Int
    private let client: HTTPClient
    private let session: URLSession
    private let salvoCall: NetCall
    private let streamCall: NetCall
    private let rawSmall: HTTPClientRequest
    private let rawLarge: HTTPClientRequest
    private let rawDelegateSmall: HTTPClient.Request
    private let urlSessionSmall: URLRequest

    /// Puts the two files the workloads fetch on `server`.
    public static func serveFiles(on server: NginxServer, byteCount: Int) throws {
        try server.serve(Data(smallBody), as: "small.json")
        try server.servePattern(byteCount: byteCount, as: "large.bin")
    }

    /// Workloads against the server at `baseURL`, which serves ``serveFiles(on:byteCount:)``'s
    /// files; `maxConnections` per host on every side.
    public init(baseURL: URL, byteCount: Int = ByteStreaming.defaultByteCount, maxConnections: Int = 16) throws {
        self.byteCount = byteCount
        var configuration = AsyncHTTPClientSession.clientConfiguration
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnections)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let urlConfiguration = URLSessionConfiguration.uncached()
        urlConfiguration.httpMaximumConnectionsPerHost = maxConnections
        session = URLSession(configuration: urlConfiguration)
        let serverConfig = try ServerConfig(baseURL: baseURL.absoluteString)
        let firing = FiringFunction.asyncHTTPClient(AsyncHTTPClientSession(client: client))
        salvoCall = NetCall(server: serverConfig, endpoint: .get("/small.json"), callbackQueue: .immediate, firingFunction: firing)
        streamCall = NetCall(server: serverConfig, endpoint: .get("/large.bin"), callbackQueue: .immediate, firingFunction: firing)
        rawSmall = HTTPClientRequest(url: baseURL.appendingPathComponent("small.json").absoluteString)
        rawLarge = HTTPClientRequest(url: baseURL.appendingPathComponent("large.bin").absoluteString)
        rawDelegateSmall = try HTTPClient.Request(url: baseURL.appendingPathComponent("small.json"))
        urlSessionSmall = try NetCall(server: serverConfig, endpoint: .get("/small.json")).urlRequest()
    }

    /// Shuts the client down; call once, at the end.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    // MARK: - 11: small JSON GETs

    /// One Salvo request over AsyncHTTPClient: `NetCall.response()`.
    public func salvoOnce() async throws {
        let response = try await salvoCall.response()
        guard response.data.count == Self.smallBody.count else { throw WorkloadError("Salvo got \(response.data.count) bytes") }
    }

    /// One raw AsyncHTTPClient request: execute, check the status, collect the body.
    public func rawAsyncHTTPClientOnce() async throws {
        let response = try await client.execute(rawSmall, timeout: .seconds(30))
        guard response.status == .ok else { throw WorkloadError("AsyncHTTPClient got \(response.status)") }
        let body = try await response.body.collect(upTo: 1 << 20)
        guard body.readableBytes == Self.smallBody.count else { throw WorkloadError("AsyncHTTPClient got \(body.readableBytes) bytes") }
    }

    /// One raw AsyncHTTPClient request through the delegate API the transport uses
    /// (`execute(request:delegate:eventLoop:)`, a delegate that collects the body): the floor
    /// that API sets, apart from anything Salvo does.
    public func rawDelegateOnce() async throws {
        let task = client.execute(request: rawDelegateSmall, delegate: CollectingDelegate(), eventLoop: .indifferent, logger: nil)
        let body = try await task.futureResult.get()
        guard body.readableBytes == Self.smallBody.count else { throw WorkloadError("AsyncHTTPClient got \(body.readableBytes) bytes") }
    }

    /// One raw URLSession request: `data(for:)` and the status check.
    public func rawURLSessionOnce() async throws {
        let (data, response) = try await session.data(for: urlSessionSmall)
        guard (response as? HTTPURLResponse)?.statusCode == 200, data.count == Self.smallBody.count else {
            throw WorkloadError("URLSession got \(response) with \(data.count) bytes")
        }
    }

    // MARK: - 12: streaming

    /// The large file through `for try await chunk in call.bytes()` over AsyncHTTPClient; returns the bytes read.
    @discardableResult
    public func salvoStream() async throws -> Int {
        var count = 0
        for try await chunk in streamCall.bytes() { count += chunk.count }
        guard count == byteCount else { throw WorkloadError("Salvo streamed \(count) of \(byteCount) bytes") }
        return count
    }

    /// The large file through raw AsyncHTTPClient's body sequence; returns the bytes read.
    @discardableResult
    public func rawStream() async throws -> Int {
        let response = try await client.execute(rawLarge, timeout: .seconds(300))
        guard response.status == .ok else { throw WorkloadError("AsyncHTTPClient got \(response.status)") }
        var count = 0
        for try await buffer in response.body { count += buffer.readableBytes }
        guard count == byteCount else { throw WorkloadError("AsyncHTTPClient streamed \(count) of \(byteCount) bytes") }
        return count
    }
}

/// Collects a response body for ``ServerSideFiring/rawDelegateOnce()``, failing on a status other than 200.
private final class CollectingDelegate: HTTPClientResponseDelegate {
    typealias Response = ByteBuffer
    // Called on one event loop, one call at a time (AsyncHTTPClient's contract for a delegate).
    nonisolated(unsafe) private var body = ByteBuffer()
    nonisolated(unsafe) private var status: HTTPResponseStatus = .ok

    func didReceiveHead(task: HTTPClient.Task<ByteBuffer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        status = head.status
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<ByteBuffer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        var buffer = buffer
        body.writeBuffer(&buffer)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<ByteBuffer>) throws -> ByteBuffer {
        guard status == .ok else { throw WorkloadError("AsyncHTTPClient got \(status)") }
        return body
    }
}
