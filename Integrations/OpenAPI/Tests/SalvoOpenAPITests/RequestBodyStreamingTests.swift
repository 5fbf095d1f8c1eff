import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import Salvo
import SalvoOpenAPI
import Testing

/// Request bodies of unknown or large length, streamed as the generated client's `HTTPBody`
/// produces them, against the loopback server (which hashes uploads as they stream in and says
/// how long their bytes took to arrive) and against mocks.
@Suite struct RequestBodyStreamingTests {
    /// 40 chunks of 64 KiB (2.5 MiB), numbered so that a lost or repeated chunk changes the hash.
    static let chunks: [Data] = (0..<40).map { index in Data(repeating: UInt8(index), count: 64 << 10) }

    /// ``chunks``, one at a time, as often as they are iterated.
    struct Chunks: AsyncSequence, Sendable {
        struct AsyncIterator: AsyncIteratorProtocol {
            var index = 0

            mutating func next() async -> ArraySlice<UInt8>? {
                guard index < RequestBodyStreamingTests.chunks.count else { return nil }
                defer { index += 1 }
                return ArraySlice(RequestBodyStreamingTests.chunks[index])
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    /// A body that produces ``chunks`` one at a time and does not announce its length.
    static func chunkedBody(_ iterationBehavior: IterationBehavior = .single) -> HTTPBody {
        HTTPBody(Chunks(), length: .unknown, iterationBehavior: iterationBehavior)
    }

    @Test func aBodyArrivingInChunksReachesTheServerWholeThroughBothTransports() async throws {
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL())
        let results = try await clients.both { client in
            try await client.uploadRaw(path: .init(key: uniqueKey()), body: .binary(Self.chunkedBody())).ok.body.json
        }
        #expect(results.salvo.received == 40 << 16)
        #expect(results.salvo.sha256 == results.urlSession.sha256)
    }

    /// Uploads two chunks, the second 600 ms after the first, and returns the server's report
    /// (`spreadMs`: how long the bytes took to arrive).
    private func uploadOfABodyWhoseLastChunkComesLate() async throws -> Components.Schemas.UploadReport {
        let body = HTTPBody(AsyncStream<ArraySlice<UInt8>> { continuation in
            let feed = Task {
                continuation.yield(ArraySlice(Self.chunks[0]))
                try? await Task.sleep(for: .milliseconds(600))
                continuation.yield(ArraySlice(Self.chunks[1]))
                continuation.finish()
            }
            continuation.onTermination = { _ in feed.cancel() }
        }, length: .unknown, iterationBehavior: .single)
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL())
        return try await clients.salvo.uploadRaw(path: .init(key: uniqueKey()), body: .binary(body)).ok.body.json
    }

    #if canImport(FoundationNetworking)
    /// Linux URLSession cannot wait for a chunk without stopping every transfer of the process,
    /// so Salvo makes the body first there (Docs/Linux.md): its bytes reach the server together,
    /// well after the 600 ms the last chunk took. AsyncHTTPClient streams it
    /// (StreamedBodyIntegrationTests in Transports/AsyncHTTPClient).
    @Test func onLinuxABodyOfUnknownLengthIsMadeWholeBeforeTheUploadStarts() async throws {
        let report = try await uploadOfABodyWhoseLastChunkComesLate()
        #expect(report.received == 2 << 16)
        #expect((report.spreadMs ?? 0) < 400)
    }
    #else
    /// The last chunk comes 600 ms after the first: a body read whole before it is sent (as the
    /// transport once spooled it to a file) arrives within a few milliseconds.
    @Test func theUploadStartsBeforeTheBodyHasEnded() async throws {
        let report = try await uploadOfABodyWhoseLastChunkComesLate()
        #expect(report.received == 2 << 16)
        #expect((report.spreadMs ?? 0) >= 400)
    }
    #endif

    @Test func aRetrySendsABodyThatCanBeIteratedAgainWhole() async throws {
        // The server fails the first attempt after reading it; the retry iterates the body again.
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL(), actions: [RetryAction(baseDelay: 0, retryableMethods: [.put])])
        let once = try await clients.salvo.uploadRaw(path: .init(key: uniqueKey()), body: .binary(Self.chunkedBody(.multiple))).ok.body.json
        let report = try await clients.salvo.uploadRaw(path: .init(key: uniqueKey()), query: .init(failures: 1), body: .binary(Self.chunkedBody(.multiple))).ok.body.json
        #expect(report.attempt == 2)
        #expect(report.received == 40 << 16)
        #expect(report.sha256 == once.sha256)
    }

    @Test func aRetryOfABodyThatCanBeIteratedOnceFailsNamingTheOperation() async throws {
        let clients = try Clients(baseURL: try await LoopbackServer.baseURL(), actions: [RetryAction(baseDelay: 0, retryableMethods: [.put])])
        do {
            _ = try await clients.salvo.uploadRaw(path: .init(key: uniqueKey()), query: .init(failures: 1), body: .binary(Self.chunkedBody(.single)))
            Issue.record("a body that can be read once was sent twice")
        } catch {
            let networkError = try #require(underlyingNetworkError(error))
            guard case .invalidRequest(let problem) = networkError else {
                Issue.record("expected invalidRequest, got \(networkError)")
                return
            }
            #expect(problem.part == .body)
            #expect(problem.reason.contains("operation uploadRaw can be read once"))
            #expect(problem.reason.contains("iterationBehavior: .multiple"))
        }
    }

    @Test func aMockSeesTheBytesOfABodyOfUnknownLengthWhichIsStreamedNotHeldInTheRequest() async throws {
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
        #expect(request.body == Self.chunks.reduce(Data(), +))
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

    @Test func aBodyThatFailsWhileSentFailsTheCallWithItsError() async throws {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "the microphone was unplugged" }
        }
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
            #expect("\(networkError)".contains("the microphone was unplugged"))
        }
    }
}
