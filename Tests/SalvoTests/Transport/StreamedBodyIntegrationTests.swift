import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Bodies made while they are sent (`RequestBody.stream`) over each transport, against the loopback
/// server's `/upload/raw` route, which hashes the body as it arrives and says how long its bytes
/// took to arrive.
@Suite struct StreamedBodyIntegrationTests {
    struct Upload: Decodable, Sendable {
        let attempt: Int
        let contentLength: String?
        let transferEncoding: String?
        let received: Int
        let isPattern: Bool?
        let spreadMs: Int
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// `count` chunks of `size` bytes of the loopback pattern (byte i of the body is i % 251).
    static func patternChunks(_ count: Int, of size: Int) -> [Data] {
        (0..<count).map { index in Data((0..<size).map { UInt8((index * size + $0) % 251) }) }
    }

    /// Counts the bodies made, so that a test sees each send make its own.
    final class Makes: Sendable {
        private let count = Locked(0)
        var made: Int { count.withLock { $0 } }

        func chunks(_ chunks: [Data], pausing pause: Duration = .zero) -> AsyncStream<Data> {
            count.withLock { $0 += 1 }
            return AsyncStream { continuation in
                let feed = Task {
                    for (index, chunk) in chunks.enumerated() {
                        if index > 0, pause > .zero { try? await Task.sleep(for: pause) }
                        continuation.yield(chunk)
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in feed.cancel() }
            }
        }
    }

    private func upload(
        _ body: RequestBody,
        query: KeyValuePairs<String, String> = [:],
        actions: [any NetworkAction] = [],
        over transport: TransportUnderTest
    ) async throws -> Upload {
        let endpoint = Endpoint.put("/upload/raw/\(uniqueKey())", query: query, body: body)
        let call = NetCall(server: try await .loopback(), endpoint: endpoint, actions: actions, firingFunction: transport.firing)
        return try await withTimeout(60) { try await call.value(as: Upload.self, decoder: Self.decoder) }
    }

    @Test(arguments: TransportUnderTest.all)
    func theUploadStartsBeforeTheBodyIsMade(over transport: TransportUnderTest) async throws {
        // The second chunk is made 1.5 s after the first: a body made whole before it is sent
        // arrives within a few milliseconds. (At 600 ms, a server thread that started reading
        // late on a loaded machine saw only 344 ms between the first and last bytes.)
        let makes = Makes(), chunks = Self.patternChunks(2, of: 64 << 10)
        let upload = try await upload(.stream { makes.chunks(chunks, pausing: .milliseconds(1_500)) }, over: transport)
        #expect(upload.received == 128 << 10)
        #expect(upload.isPattern == true)
        if transport.has(.readsStreamedBodiesWhole) {
            #expect(upload.spreadMs < 400)
        } else {
            #expect(upload.spreadMs >= 400)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyOfKnownLengthArrivesWhole(over transport: TransportUnderTest) async throws {
        let makes = Makes(), chunks = Self.patternChunks(40, of: 50_000)
        let upload = try await upload(.stream(length: 2_000_000) { makes.chunks(chunks) }, over: transport)
        #expect(upload.received == 2_000_000)
        #expect(upload.isPattern == true)
        #if canImport(FoundationNetworking)
        // Linux sends a stream chunked; its URLSession sends the chunks read whole, with their length.
        #expect(upload.contentLength == (transport.has(.readsStreamedBodiesWhole) ? "2000000" : nil))
        #else
        #expect(upload.contentLength == "2000000")
        #endif
    }

    @Test(arguments: TransportUnderTest.all)
    func aRetryAfter503MakesTheBodyAgain(over transport: TransportUnderTest) async throws {
        let makes = Makes(), chunks = Self.patternChunks(10, of: 100_000)
        let retry = RetryAction(baseDelay: 0.01, retryableMethods: [.put])
        let upload = try await upload(.stream { makes.chunks(chunks) }, query: ["failures": "1"], actions: [retry], over: transport)
        #expect(upload.attempt == 2)
        #expect(upload.received == 1_000_000)
        #expect(upload.isPattern == true)
        #expect(makes.made == 2)
    }

    @Test(arguments: TransportUnderTest.all, [307, 308])
    func aRedirectThatKeepsTheBodyMakesItAgain(over transport: TransportUnderTest, code: Int) async throws {
        let makes = Makes(), chunks = Self.patternChunks(4, of: 100_000)
        let key = uniqueKey()
        let endpoint = Endpoint.put("/redirect", query: ["to": "/upload/raw/\(key)", "code": "\(code)"], body: .stream { makes.chunks(chunks) })
        let call = NetCall(server: try await .loopback(), endpoint: endpoint, firingFunction: transport.firing)
        let upload = try await withTimeout(60) { try await call.value(as: Upload.self, decoder: Self.decoder) }
        #expect(upload.received == 400_000)
        #expect(upload.isPattern == true)
        #expect(makes.made == 2)
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyShorterThanItsLengthFailsTheCallInsteadOfArrivingShort(over transport: TransportUnderTest) async throws {
        let makes = Makes(), chunks = Self.patternChunks(2, of: 10_000)
        do {
            _ = try await upload(.stream(length: 30_000) { makes.chunks(chunks) }, over: transport)
            Issue.record("a short body was sent as complete")
        } catch let error as NetworkError {
            guard case .invalidRequest(let problem) = error else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect(problem.part == .body)
            #expect("\(problem)".contains("ended after 20000 of the 30000 bytes"))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyThatFailsFailsTheCallWithItsError(over transport: TransportUnderTest) async throws {
        struct DiskGone: Error, CustomStringConvertible {
            var description: String { "the recording's disk was removed" }
        }
        let body = RequestBody.stream {
            AsyncThrowingStream<Data, any Error> { continuation in
                continuation.yield(Data(repeating: 1, count: 1_000))
                continuation.finish(throwing: DiskGone())
            }
        }
        do {
            _ = try await upload(body, over: transport)
            Issue.record("a failed body was sent as complete")
        } catch let error as NetworkError {
            guard case .invalidRequest(let problem) = error else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect("\(problem)".contains("the recording's disk was removed"))
        }
    }
}
