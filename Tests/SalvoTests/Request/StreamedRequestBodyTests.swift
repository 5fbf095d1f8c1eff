import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SalvoTesting
import Testing
@_spi(Transport) @testable import Salvo

/// `RequestBody.stream`: chunks made while the body is sent, read whole by mock firing.
@Suite struct StreamedRequestBodyTests {
    private static let server = ServerConfig(scheme: "https", host: "api.example")

    private static func chunks(_ texts: [String]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for text in texts { continuation.yield(Data(text.utf8)) }
            continuation.finish()
        }
    }

    @Test func aMockRouteSeesTheBytesOfABodyMadeWhileSent() async throws {
        let seen = Locked<(Data?, Int64?)>((nil, nil))
        let call = NetCall(
            server: Self.server,
            endpoint: .put("/notes", body: .stream(contentType: "text/plain") { Self.chunks(["to be ", "or not"]) }),
            firingFunction: .mock { request in
                seen.withLock { $0 = (request.body, request.bodyLength) }
                return .status(204)
            }
        )
        _ = try await call.response()
        let (body, length) = seen.withLock { $0 }
        #expect(body == Data("to be or not".utf8))
        #expect(length == 12)
    }

    @Test func theRequestCarriesTheContentTypeAndNoBytes() throws {
        let request = try NetCall(server: Self.server, endpoint: .post("/a", body: .stream(length: 3, contentType: "audio/ogg") { Self.chunks(["abc"]) })).urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "audio/ogg")
        #expect(request.httpBody == nil)
        #expect((request.httpBodyStream as? BodyStream)?.length == 3)
        #if canImport(FoundationNetworking)
        #expect(request.value(forHTTPHeaderField: "Content-Length") == nil)
        #else
        #expect(request.value(forHTTPHeaderField: "Content-Length") == "3")
        #endif
    }

    @Test func aRetryMakesTheBodyAgainForTheMock() async throws {
        let attempts = Locked<[Data?]>([])
        let call = NetCall(
            server: Self.server,
            endpoint: .put("/notes", body: .stream { Self.chunks(["x", "y"]) }),
            actions: [RetryAction(baseDelay: 0, retryableMethods: [.put])],
            firingFunction: .mock { request in
                let count = attempts.withLock { $0.append(request.body); return $0.count }
                return count == 1 ? .status(503) : .status(204)
            }
        )
        _ = try await call.response()
        #expect(attempts.withLock { $0 } == [Data("xy".utf8), Data("xy".utf8)])
    }

    @Test func aBodyLongerThanItsLengthFailsTheMockedCall() async throws {
        let call = NetCall(server: Self.server, endpoint: .put("/notes", body: .stream(length: 2) { Self.chunks(["abc"]) }), firingFunction: .mock { _ in .status(204) })
        do {
            _ = try await call.response()
            Issue.record("a body longer than its length was sent")
        } catch {
            #expect("\(error)".contains("longer than the 2 bytes it announced"))
        }
    }

    @Test func aNegativeLengthIsAnInvalidRequest() throws {
        let call = NetCall(server: Self.server, endpoint: .put("/notes", body: .stream(length: -1) { Self.chunks([]) }))
        let result = Result { () throws(NetworkError) in try call.urlRequest() }
        guard case .failure(.invalidRequest(let problem)) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(problem.reason.contains("0 or more bytes, not -1"))
    }

    @Test func aBlockingReadWaitsForEachChunkAndEndsAtTheLast() async throws {
        let request = try NetCall(server: Self.server, endpoint: .post("/a", body: .stream { Self.chunks(["ab", "", "cde"]) })).urlRequest()
        // Read as a transport does, on a thread of its own: never a cooperative thread, which the
        // chunks may need.
        let (reads, failure) = await withCheckedContinuation { (continuation: CheckedContinuation<([String], String?), Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: Self.readAll(request.httpBodyStream as? BodyStream))
            }
        }
        // One read per chunk (an empty chunk is skipped): bytes go out as soon as they exist.
        #expect(reads == ["ab", "cde"])
        #expect(failure == nil)
    }

    /// Every read of `stream` until its end, and why it failed, if it did.
    private static func readAll(_ stream: BodyStream?) -> ([String], String?) {
        guard let stream else { return ([], "no body stream") }
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        var reads: [String] = []
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            reads.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        return (reads, stream.failure)
    }
}
