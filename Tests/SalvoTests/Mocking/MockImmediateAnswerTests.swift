import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// `.mock(response)` on a perfect network resolves its answer once, when the session is made, and
/// reports it with `finish(with:body:)`: these pin that it answers as the per-request path does.
@Suite struct MockImmediateAnswerTests {
    static let server = ServerConfig(host: "api.example.com", basePath: "v1")
    static let body = Data(#"{"ok":true}"#.utf8)

    static func request(_ endpoint: Endpoint = .get("/items")) throws -> URLRequest {
        try NetCall(server: server, endpoint: endpoint).urlRequest()
    }

    /// A receiver that implements only the required reports hears the whole answer as the head,
    /// the body and the end, in that order: `finish(with:body:)`'s default.
    @Test func aReceiverWithoutTheWholeAnswerReportHearsHeadBodyAndEnd() async throws {
        let session = MockSession(conditions: NetworkConditions(), clock: .immediate, answering: .data(Self.body))
        let log = ReceiverLog(streaming: false)
        _ = session.start(try Self.request(), options: log.options, receiver: log)
        #expect(log.reports == [.head(status: 200), .chunk(Self.body), .finish(nil)])
        #expect(log.violations.isEmpty)
    }

    @Test func anEmptyBodyIsReportedAsNoChunk() async throws {
        let session = MockSession(conditions: NetworkConditions(), clock: .immediate, answering: .status(204))
        let log = ReceiverLog(streaming: false)
        _ = session.start(try Self.request(), options: log.options, receiver: log)
        #expect(log.reports == [.head(status: 204), .finish(nil)])
    }

    @Test func theRequestBodyIsReportedSentBeforeTheAnswer() async throws {
        let session = MockSession(conditions: NetworkConditions(), clock: .immediate, answering: .status(201))
        let log = ReceiverLog(streaming: false)
        let request = try Self.request(.post("/items", body: .data(Data("hello".utf8), contentType: "text/plain")))
        _ = session.start(request, options: log.options, receiver: log)
        #expect(log.reports == [.sent(5, of: 5), .head(status: 201), .finish(nil)])
    }

    @Test func aHeadRequestGetsTheHeadersWithoutTheBody() async throws {
        let call = NetCall(server: Self.server, endpoint: Endpoint(method: .head, path: "/items"), firingFunction: .mock(.data(Self.body, headers: ["X-Count": "3"])))
        let response = try await call.response()
        #expect(response.head?.statusCode == 200)
        #expect(response.head?.headers["X-Count"] == "3")
        #expect(response.data.isEmpty)
    }

    @Test func theAnswerReachesTheResponderBeforeFireReturns() throws {
        let delivered = Locked<[Data]>([])
        let call = NetCall(
            server: Self.server,
            endpoint: .get("/items"),
            responder: NetworkResponder(dataHandler: { data in delivered.withLock { $0.append(data) } }),
            callbackQueue: .immediate,
            firingFunction: .mock(.json(["ok": true]))
        )
        let task = call.fire()
        #expect(task.isFinished)
        #expect(delivered.withLock { $0 } == [Data(#"{"ok":true}"#.utf8)])
    }

    /// A canned redirect is not answered at once: it is followed, through the same answer, until
    /// the loop ends.
    @Test func aCannedRedirectIsStillFollowed() async {
        let call = NetCall(server: Self.server, endpoint: .get("/loop"), firingFunction: .mock(.redirect(to: "/loop")))
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        guard case .transport(let urlError)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .httpTooManyRedirects)
    }

    /// Upload progress and metrics still come from a canned answer: the attempt falls back to the
    /// head, the body and the end when somebody listens.
    @Test func progressAndMetricsStillComeFromACannedAnswer() throws {
        let progress = Locked<[TransferProgress]>([])
        let metrics = Locked<[AttemptMetrics]>([])
        let delivered = Locked<[Data]>([])
        var server = Self.server
        server.collectsMetrics = true
        var responder = NetworkResponder(
            dataHandler: { data in delivered.withLock { $0.append(data) } },
            progressHandler: { report in progress.withLock { $0.append(report) } }
        )
        responder.metricsHandler = { measured in metrics.withLock { $0.append(contentsOf: measured) } }
        let call = NetCall(
            server: server,
            endpoint: .post("/items", body: .data(Data(count: 10), contentType: "application/octet-stream")),
            responder: responder,
            callbackQueue: .immediate,
            firingFunction: .mock(.data(Self.body))
        )
        #expect(call.fire().isFinished)
        #expect(delivered.withLock { $0 } == [Self.body])
        let measured = try #require(metrics.withLock { $0 }.first)
        #expect(measured.bytesSent == 10)
        #expect(measured.bytesReceived == Int64(Self.body.count))
        let reports = progress.withLock { $0 }
        #expect(reports.contains(TransferProgress(direction: .upload, completedBytes: 10, expectedBytes: 10)))
        #expect(reports.last?.direction == .download)
    }
}
