import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import Salvo
import SalvoOpenAPI
import Testing

/// Request bodies of unknown or large length: spooled to a temporary file as their chunks arrive
/// and streamed from it, against the loopback server (which hashes uploads as they stream in) and
/// against mocks. Serialized: each test checks that no spool file is left behind.
@Suite(.serialized) struct RequestBodyStreamingTests {
    /// 40 chunks of 64 KiB (2.5 MiB), numbered so that a lost or repeated chunk changes the hash.
    static let chunks: [Data] = (0..<40).map { index in Data(repeating: UInt8(index), count: 64 << 10) }

    /// A body that produces ``chunks`` one at a time and does not announce its length.
    static func chunkedBody() -> HTTPBody {
        HTTPBody(AsyncStream { continuation in
            for chunk in chunks { continuation.yield(ArraySlice(chunk)) }
            continuation.finish()
        }, length: .unknown, iterationBehavior: .single)
    }

    /// The spool files in the temporary directory.
    static func spoolFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("salvo-openapi-") }
    }

    @Test func aBodyArrivingInChunksReachesTheServerWholeThroughBothTransports() async throws {
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL())
        let results = try await clients.both { client in
            try await client.uploadRaw(path: .init(key: uniqueKey()), body: .binary(Self.chunkedBody())).ok.body.json
        }
        #expect(results.salvo.received == 40 << 16)
        #expect(results.salvo.sha256 == results.urlSession.sha256)
        #expect(try Self.spoolFiles().isEmpty)
    }

    @Test func aRetrySendsTheWholeChunkedBodyAgain() async throws {
        // The server fails the first attempt after reading it; the retry must send every byte again,
        // which a single pass over the generated client's body could not.
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL(), actions: [RetryAction(baseDelay: 0, retryableMethods: [.put])])
        let once = try await clients.salvo.uploadRaw(path: .init(key: uniqueKey()), body: .binary(Self.chunkedBody())).ok.body.json
        let report = try await clients.salvo.uploadRaw(path: .init(key: uniqueKey()), query: .init(failures: 1), body: .binary(Self.chunkedBody())).ok.body.json
        #expect(report.attempt == 2)
        #expect(report.received == 40 << 16)
        #expect(report.sha256 == once.sha256)
        #expect(try Self.spoolFiles().isEmpty)
    }

    @Test func aBodyOfUnknownLengthIsStreamedFromAFileNotHeldInTheRequest() async throws {
        let seen = SalvoTransportMockTests.Received()
        let report = Components.Schemas.UploadReport(attempt: 1, received: 0, sha256: "")
        let client = try mockClient(MockRoute.operation("uploadRaw") { request in
            seen.append(request)
            return .json(report)
        })
        _ = try await client.uploadRaw(path: .init(key: "k"), body: .binary(Self.chunkedBody())).ok
        let request = try #require(seen.all.first)
        #expect(request.request.httpBody == nil)
        #expect(request.request.httpBodyStream != nil)
        #expect(request.bodyLength == 40 << 16)
        #expect(try Self.spoolFiles().isEmpty)
    }

    @Test func aSmallBodyOfKnownLengthIsSentFromMemory() async throws {
        let seen = SalvoTransportMockTests.Received()
        let client = try mockClient(MockRoute.operation("uploadRaw") { request in
            seen.append(request)
            return .json(Components.Schemas.UploadReport(attempt: 1, received: 5, sha256: ""))
        })
        _ = try await client.uploadRaw(path: .init(key: "k"), body: .binary(HTTPBody("hello"))).ok
        #expect(seen.all.first?.request.httpBody == Data("hello".utf8))
    }

    @Test func aBodyThatFailsWhileSpoolingFailsTheCallNamingTheOperation() async throws {
        struct Broken: Error {}
        let body = HTTPBody(AsyncThrowingStream<ArraySlice<UInt8>, any Error> { continuation in
            continuation.yield(ArraySlice(Data(repeating: 1, count: 1_000)))
            continuation.finish(throwing: Broken())
        }, length: .unknown, iterationBehavior: .single)
        let client = try mockClient(MockRoute.operation("uploadRaw", .status(200)))
        do {
            _ = try await client.uploadRaw(path: .init(key: "k"), body: .binary(body))
            Issue.record("a body that failed was sent")
        } catch {
            let networkError = try #require(underlyingNetworkError(error))
            #expect("\(networkError)".contains("uploadRaw"))
        }
        #expect(try Self.spoolFiles().isEmpty)
    }
}
