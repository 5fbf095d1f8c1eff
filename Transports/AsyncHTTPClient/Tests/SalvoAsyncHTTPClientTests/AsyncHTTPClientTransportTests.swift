import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOPosix
@_spi(Transport) @testable import Salvo
import SalvoAsyncHTTPClient
import Testing

/// What the AsyncHTTPClient transport does beyond the shared suites: exact timeouts, cookies,
/// where and how a receiver is called, upload progress, request bodies of any stream, and
/// redirects of bodies that cannot be sent again.
@Suite struct AsyncHTTPClientTransportTests {
    private func call(_ endpoint: Endpoint, through session: AsyncHTTPClientSession = .shared) async throws -> NetCall {
        NetCall(server: try await .loopback(), endpoint: endpoint, firingFunction: .asyncHTTPClient(session))
    }

    private func url(_ path: String, query: String = "") async throws -> URL {
        let base = try await LoopbackServer.baseURL().absoluteString
        return try #require(URL(string: "\(base)/\(path)\(query.isEmpty ? "" : "?" + query)"))
    }

    /// Linux `URLSession` would wait 1 s for either. A loaded test run can hold the event loop up
    /// for a second or more, so the precision is read from the best of three tries.
    @Test(arguments: [0.2, 0.4])
    func aSubSecondTimeoutIsHonouredToTheMillisecond(seconds: Double) async throws {
        var best = Double.infinity
        for _ in 1...3 where best >= seconds + 0.3 {
            let call = try await call(Endpoint.get("/slow", query: ["delay": "5"]).timeout(seconds))
            let started = Date()
            let error = await networkError { try await call.response() }
            let elapsed = Date().timeIntervalSince(started)
            guard case .transport(let urlError)? = error else { Issue.record("got \(String(describing: error))"); return }
            #expect(urlError.code == .timedOut)
            #expect(elapsed >= seconds - 0.01 && elapsed < 4.5, "a \(seconds) s timeout took \(elapsed) s")
            best = min(best, elapsed)
        }
        #expect(best < seconds + 0.3, "a \(seconds) s timeout took \(best) s at best")
    }

    @Test func cookiesAreKeptOnlyInAStorageYouPass() async throws {
        let storage = try #require(TransportUnderTest.freshCookieStorage())
        let withCookies = AsyncHTTPClientSession(cookieStorage: storage)
        _ = try await call(.get("/cookie"), through: withCookies).response()
        #expect(storage.cookies?.map(\.name) == ["session"])
        let echo = try await call(.get("/echo/with"), through: withCookies).value(as: Echo.self)
        #expect(echo.header("Cookie") == "session=secret-cookie-value")

        let without = AsyncHTTPClientSession()
        _ = try await call(.get("/cookie"), through: without).response()
        #expect(try await call(.get("/echo/without"), through: without).value(as: Echo.self).header("Cookie") == nil)
        try await withCookies.shutdown()
        try await without.shutdown()
    }

    @Test func aCookieHeaderOfTheCallersOwnIsSentAsWritten() async throws {
        let storage = try #require(TransportUnderTest.freshCookieStorage())
        let session = AsyncHTTPClientSession(cookieStorage: storage)
        _ = try await call(.get("/cookie"), through: session).response()
        let echo = try await call(.get("/echo/mine", headers: ["Cookie": "mine=1"]), through: session).value(as: Echo.self)
        #expect(echo.header("Cookie") == "mine=1")
        try await session.shutdown()
    }

    @Test func aStreamedBodyReachesItsReceiverOffTheEventLoopOneCallAtATimeInOrder() async throws {
        let receiver = ThreadCheckingReceiver()
        let task = AsyncHTTPClientSession.shared.start(URLRequest(url: try await url("stream/bytes", query: "n=2000000")), options: receiver.options, receiver: receiver)
        #expect(await receiver.waitForFinish())
        let report = receiver.report
        #expect(report.events.first == "head" && report.events.last == "finish")
        #expect(report.events.filter { $0 == "finish" }.count == 1)
        #expect(report.bytes == 2_000_000)
        #expect(!report.wasCalledOnAnEventLoop)
        #expect(!report.overlapped)
        task.cancel() // after the end: changes nothing
        try await Task.sleep(for: .milliseconds(50))
        #expect(receiver.report.events.filter { $0 == "finish" }.count == 1)
    }

    /// A body read whole is kept by the exchange and reported with its head and the end in one
    /// call, as the URLSession transport reports a completion handler's answer.
    @Test func aBodyReadWholeReachesItsReceiverInOneCallWithItsHead() async throws {
        let receiver = ThreadCheckingReceiver(readsBodyAsItArrives: false)
        _ = AsyncHTTPClientSession.shared.start(URLRequest(url: try await url("stream/bytes", query: "n=2000000")), options: receiver.options, receiver: receiver)
        #expect(await receiver.waitForFinish())
        let report = receiver.report
        #expect(report.events == ["whole"])
        #expect(report.statusCode == 200)
        #expect(report.bytes == 2_000_000)
        #expect(report.error == nil)
    }

    @Test func cancellingMidBodyFinishesOnceWithCancelled() async throws {
        let receiver = ThreadCheckingReceiver()
        let request = URLRequest(url: try await url("stream/drip", query: "n=50&interval=0.1"))
        let task = AsyncHTTPClientSession.shared.start(request, options: receiver.options, receiver: receiver)
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        task.cancel()
        #expect(await receiver.waitForFinish())
        try await Task.sleep(for: .milliseconds(100))
        let report = receiver.report
        #expect(report.events.filter { $0 == "finish" }.count == 1)
        #expect((report.error as? URLError)?.code == .cancelled)
    }

    @Test func uploadProgressIsReportedUpToTheWholeBody() async throws {
        let body = Data(repeating: 7, count: 3_000_000)
        let transfer = try await call(Endpoint.post("/echo/upload", body: .data(body)).timeout(30)).transfer()
        var uploads: [TransferProgress] = []
        for await report in transfer.progress where report.direction == .upload {
            uploads.append(report)
        }
        _ = try await transfer.response
        #expect(uploads.last?.completedBytes == 3_000_000)
        #expect(uploads.last?.expectedBytes == 3_000_000)
        #expect(uploads.count > 1, "reported as it went, not once")
    }

    @Test(arguments: [true, false])
    func anyInputStreamIsSentWithTheRequestsLengthOrChunked(hasLength: Bool) async throws {
        var request = URLRequest(url: try await url("upload/raw/\(uniqueKey())"))
        request.httpMethod = "PUT"
        let bytes = Data((0..<300_000).map { UInt8($0 % 251) })
        request.httpBodyStream = InputStream(data: bytes)
        if hasLength { request.setValue("300000", forHTTPHeaderField: "Content-Length") }
        let receiver = ThreadCheckingReceiver()
        _ = AsyncHTTPClientSession.shared.start(request, options: receiver.options, receiver: receiver)
        #expect(await receiver.waitForFinish())
        struct Upload: Decodable { let received: Int; let content_length: String?; let transfer_encoding: String?; let is_pattern: Bool? }
        let upload = try JSONDecoder().decode(Upload.self, from: receiver.report.body)
        #expect(upload.received == 300_000)
        #expect(upload.is_pattern == true)
        #expect(upload.content_length == (hasLength ? "300000" : nil))
        #expect(upload.transfer_encoding == (hasLength ? nil : "chunked"))
    }

    @Test func aRedirectThatMustResendAForeignStreamFailsAsURLSessionDoes() async throws {
        var request = URLRequest(url: try await url("redirect", query: "to=/echo/landed&code=307"))
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: Data("once".utf8))
        let receiver = ThreadCheckingReceiver()
        _ = AsyncHTTPClientSession.shared.start(request, options: receiver.options, receiver: receiver)
        #expect(await receiver.waitForFinish())
        #expect((receiver.report.error as? URLError)?.code == .requestBodyStreamExhausted)
        #expect(!receiver.report.events.contains("head"))
    }

    @Test func anInvalidHeaderValueIsRefusedAsAnInvalidRequestNotSent() async throws {
        var request = URLRequest(url: try await url("echo/bad-header"))
        request.setValue("a\u{1}b", forHTTPHeaderField: "X-Control")
        let receiver = ThreadCheckingReceiver()
        _ = AsyncHTTPClientSession.shared.start(request, options: receiver.options, receiver: receiver)
        #expect(await receiver.waitForFinish())
        guard case .invalidRequest(let problem)? = receiver.report.error as? NetworkError else {
            Issue.record("got \(String(describing: receiver.report.error))")
            return
        }
        #expect(problem.part == .header)
    }
}

/// A receiver that records where and how it is called: reading bodies as they arrive, or whole.
final class ThreadCheckingReceiver: ResponseReceiver {
    struct Report: Sendable {
        var events: [String] = []
        var statusCode: Int?
        var bytes = 0
        var body = Data()
        var error: (any Error)?
        var wasCalledOnAnEventLoop = false
        var overlapped = false
        var isInside = false
    }

    private let state = NIOLockedValueBox(Report())
    /// Whether `finish` was called, and who waits for it.
    private let end = NIOLockedValueBox<(isFinished: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Whether its exchanges read the body as it arrives (the default) or whole.
    let options: ExchangeOptions
    var report: Report { state.withLockedValue { $0 } }

    init(readsBodyAsItArrives: Bool = true) {
        options = ExchangeOptions(readsBodyAsItArrives: readsBodyAsItArrives)
    }

    private func record(_ event: String, _ change: (inout Report) -> Void = { _ in }) {
        let onEventLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
        state.withLockedValue { report in
            report.overlapped = report.overlapped || report.isInside
            report.isInside = true
            report.events.append(event)
            report.wasCalledOnAnEventLoop = report.wasCalledOnAnEventLoop || onEventLoop
            change(&report)
        }
        // Widen the window in which an overlapping call would be seen.
        usleep(200)
        state.withLockedValue { $0.isInside = false }
    }

    func receive(_ head: ResponseHead) { record("head") { $0.statusCode = head.statusCode } }

    func receive(_ chunk: Data) {
        record("chunk") { report in
            report.bytes += chunk.count
            report.body.append(chunk)
        }
    }

    func finish(_ error: (any Error)?) {
        record("finish") { $0.error = error }
        ended()
    }

    func finish(with head: ResponseHead?, body: Data?, error: (any Error)?) {
        record("whole") { report in
            report.statusCode = head?.statusCode
            report.bytes += body?.count ?? 0
            report.body.append(body ?? Data())
            report.error = error
        }
        ended()
    }

    private func ended() {
        let waiter = end.withLockedValue { end in
            end.isFinished = true
            defer { end.waiter = nil }
            return end.waiter
        }
        waiter?.resume()
    }

    /// Whether `finish` was called within `seconds`.
    func waitForFinish(seconds: Double = 10) async -> Bool {
        (try? await withTimeout(seconds) {
            await withCheckedContinuation { continuation in
                let isFinished = self.end.withLockedValue { end in
                    if !end.isFinished { end.waiter = continuation }
                    return end.isFinished
                }
                if isFinished { continuation.resume() }
            }
        }) != nil
    }
}
