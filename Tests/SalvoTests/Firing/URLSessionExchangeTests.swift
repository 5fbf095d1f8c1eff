import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// What `URLSession`'s exchange gives URLSession, and changes in a request before corelibs sees it.
@Suite struct URLSessionExchangeTests {
    @Test func aStreamedBodyIsGivenAgainFromItsFirstByteWhenTheSessionAsks() throws {
        let file = try TemporaryFile(named: "notes.txt", contents: Data("hello, again".utf8))
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .post("/notes", body: .file(file.url)))
        let request = try call.urlRequest()
        let original = try #require(request.httpBodyStream)
        _ = try readAll(original, chunkSize: 4)   // the first sending read it to its end

        let task = URLSession(configuration: .ephemeral).dataTask(with: request)
        let stream = try #require(URLSessionExchange.newBodyStream(for: task))
        #expect(stream !== original)
        #expect(try readAll(stream, chunkSize: 5) == Data("hello, again".utf8))
    }

    @Test func aBodyThatIsNotSalvosIsNotInvented() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.httpBody = Data("x".utf8)
        let task = URLSession(configuration: .ephemeral).dataTask(with: request)
        #expect(URLSessionExchange.newBodyStream(for: task) == nil)
    }

    #if canImport(FoundationNetworking)
    // corelibs never calls `urlSession(_:task:didFinishCollecting:)` and lets anyone make a
    // `URLSessionTaskMetrics` (deprecated on Apple platforms), so these tests call the exchange as
    // Apple's URLSession does when a task completes. AttemptMetricsIntegrationTests sees Apple's own.

    /// Keeps the task metrics URLSession hands a session's own delegate.
    private final class MetricsDelegate: NSObject, URLSessionTaskDelegate, Sendable {
        let received = Locked<[ObjectIdentifier]>([])

        func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
            received.withLock { $0.append(ObjectIdentifier(metrics)) }
        }
    }

    @Test func taskMetricsReachTheReceiverWhileTheExchangeRunsAndNotAfterItsEnd() async throws {
        let session = URLSession(configuration: .ephemeral)
        let request = try NetCall(server: try await .loopback(), endpoint: .get("/slow", query: ["delay": "0.3"])).urlRequest()
        let log = ReceiverLog(streaming: false)
        let exchange = URLSessionExchange.start(request, on: session, options: log.options, reportingTo: log)
        let task = session.dataTask(with: request)
        let during = URLSessionTaskMetrics()
        exchange.urlSession(session, task: task, didFinishCollecting: during)
        #expect(await log.waitForFinish())
        exchange.urlSession(session, task: task, didFinishCollecting: URLSessionTaskMetrics())
        #expect(log.taskMetrics == [ObjectIdentifier(during)])
        #expect(log.reports.first == .head(status: 200))
        #expect(log.reports.last == .finish(nil))
        #expect(log.violations.isEmpty)
    }

    @Test func taskMetricsStillReachTheSessionsOwnDelegate() async throws {
        let delegate = MetricsDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let request = try NetCall(server: try await .loopback(), endpoint: .get("/echo")).urlRequest()
        let log = ReceiverLog(streaming: false)
        let exchange = URLSessionExchange.start(request, on: session, options: log.options, reportingTo: log)
        let metrics = URLSessionTaskMetrics()
        exchange.urlSession(session, task: session.dataTask(with: request), didFinishCollecting: metrics)
        #expect(delegate.received.withLock { $0 } == [ObjectIdentifier(metrics)])
        #expect(await log.waitForFinish())
    }

    @Test(arguments: [(0.3, 1.0), (0.5, 1.0), (1.0, 1.0), (1.5, 2.0), (2.5, 3.0), (60.0, 60.0)])
    func aTimeoutIsRoundedUpToWholeSecondsForCorelibs(seconds: Double, sent: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = seconds
        #expect(URLSessionExchange.withWholeSecondTimeout(request).timeoutInterval == sent)
    }

    @Test(arguments: [0.0, -1.0, Double.infinity])
    func aTimeoutCorelibsReadsAsNoneIsLeftAlone(_ seconds: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = seconds
        #expect(URLSessionExchange.withWholeSecondTimeout(request).timeoutInterval == request.timeoutInterval)
    }
    #endif
}
