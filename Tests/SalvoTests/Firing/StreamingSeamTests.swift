import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// The session seam: both ways of implementing a session, and streamed calls decided on their head.
@Suite struct StreamingSeamTests {
    private func call(_ session: any NetworkSession, actions: [any NetworkAction] = []) -> NetCall {
        NetCall(server: ServerConfig(scheme: "http", host: "api.example"), endpoint: .get("/feed"), actions: actions, firingFunction: .session(session, clock: .immediate))
    }

    private func collect(_ bytes: ResponseStream<Data>) async throws(NetworkError) -> String {
        var body = Data()
        for try await chunk in bytes { body.append(chunk) }
        return String(decoding: body, as: UTF8.self)
    }

    @Test func aCompletionStyleSessionStreamsItsWholeBodyAsOneChunk() async throws {
        let session = ScriptedSession(.status(200, body: Data("whole".utf8)))
        var chunks: [Data] = []
        for try await chunk in call(session).bytes() { chunks.append(chunk) }
        #expect(chunks == [Data("whole".utf8)])
    }

    @Test func aReceiverStyleSessionAnswersWholeBodyCallsAndCompletionHandlers() async throws {
        let session = ScriptedStreamSession { _, _ in .exchange(["one ", "two ", "three"]) }
        #expect(String(decoding: try await call(session).response().data, as: UTF8.self) == "one two three")

        let finished = Signal()
        let request = URLRequest(url: try #require(URL(string: "http://api.example/feed")))
        let received = Locked<(Data?, Int?)>((nil, nil))
        _ = session.start(request) { data, response, _ in
            received.withLock { $0 = (data, (response as? HTTPURLResponse)?.statusCode) }
            finished.fire()
        }
        try await finished.wait()
        #expect(received.withLock { $0.0 } == Data("one two three".utf8))
        #expect(received.withLock { $0.1 } == 200)
    }

    @Test func aSessionImplementingNeitherMethodFailsClearly() async {
        struct Hollow: NetworkSession {}
        let result = await result(of: call(Hollow()))
        guard case .failure(.incompleteSetup(let problem)) = result, problem.part == .session else {
            Issue.record("expected an incomplete session setup, got \(result)")
            return
        }
        #expect(problem.description.contains("Hollow implements neither start(_:options:receiver:) nor start(_:completion:)"))
    }

    @Test func chunksArriveInOrderAsTheyCome() async throws {
        let session = ScriptedStreamSession([.exchange(["a", "b", "c"], interval: 0.02)])
        var chunks: [String] = []
        for try await chunk in call(session).bytes() { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(chunks == ["a", "b", "c"])
    }

    @Test func validationRefusesAHeadBeforeAnyByteIsStreamed() async throws {
        // The body comes 2 s after the head, so the exchange is still open when validation refuses
        // it, even under TSan (with 0.05 s it had ended before the refusal there).
        let session = ScriptedStreamSession([.exchange(headers: ["Content-Type": "text/html"], ["<html>"], interval: 2)])
        let bytes = call(session, actions: [ValidationAction.json]).bytes()
        do {
            for try await _ in bytes { Issue.record("no byte of a refused response is streamed") }
            Issue.record("the stream throws")
        } catch {
            guard case .unacceptableResponse = error else {
                Issue.record("got \(error)")
                return
            }
        }
        #expect(await eventually { session.cancellations > 0 }, "the refused exchange is stopped")
        #expect(session.cancellations == 1, "and stopped once")
    }

    @Test func a503WithRetryAfterIsRetriedBeforeStreaming() async throws {
        let session = ScriptedStreamSession([
            .exchange(status: 503, headers: ["Retry-After": "0"], ["busy"]),
            .exchange(["fresh ", "data"]),
        ])
        let body = try await collect(call(session, actions: [RetryAction()]).bytes())
        #expect(body == "fresh data")
        #expect(session.requests.count == 2)
    }

    @Test func a401IsRefreshedAndTheStreamComesFromTheRetry() async throws {
        let session = ScriptedStreamSession { _, request in
            request.value(forHTTPHeaderField: "Authorization") == "Bearer new"
                ? .exchange(["secret ", "feed"])
                : .exchange(status: 401, headers: [:])
        }
        let token = Locked("old")
        let refreshes = Locked(0)
        let actions: [any NetworkAction] = [
            TokenRenewalAction { refreshes.withLock { $0 += 1 }; token.withLock { $0 = "new" } },
            AuthTokenAction { token.withLock { $0 } },
        ]
        var authenticated = call(session, actions: actions)
        authenticated.endpoint = authenticated.endpoint.requiringAuthentication()
        let body = try await collect(authenticated.bytes())
        #expect(body == "secret feed")
        #expect(refreshes.withLock { $0 } == 1)
    }

    @Test func aFailureAfterBytesWereStreamedEndsTheStreamAndIsNeverRetried() async throws {
        let session = ScriptedStreamSession([.exchange(["first ", "second "], then: .networkConnectionLost, interval: 0.01)])
        var received = ""
        do {
            for try await chunk in call(session, actions: [RetryAction(baseDelay: 0)]).bytes() {
                received += String(decoding: chunk, as: UTF8.self)
            }
            Issue.record("the stream throws")
        } catch {
            guard case .transport(let urlError) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(urlError.code == .networkConnectionLost)
        }
        #expect(received == "first second ", "nothing delivered twice")
        #expect(session.requests.count == 1)
    }

    @Test func aStreamedHeadIsLoggedAsStreaming() async throws {
        let transcript = Transcript()
        let session = ScriptedStreamSession([.exchange(["x"])])
        _ = try await collect(call(session, actions: [LoggingAction { transcript.append($0) }]).bytes())
        #expect(transcript.text.contains("← 200 GET http://api.example/feed ("))
        #expect(transcript.text.contains("streaming)"))
    }

    @Test func theStreamResponderGetsHeadChunksAndOneCompletionInOrder() async throws {
        let session = ScriptedStreamSession([.exchange(["a", "b", "c"], interval: 0.01)])
        let events = Locked<[String]>([])
        let done = Signal()
        var streamed = call(session)
        streamed.callbackQueue = .queue(DispatchQueue(label: "stream-responder"))
        streamed.stream(to: StreamResponder(
            head: { head in events.withLock { $0.append("head \(head.statusCode)") } },
            chunk: { chunk in events.withLock { $0.append(String(decoding: chunk, as: UTF8.self)) } },
            completion: { error in events.withLock { $0.append("end \(error.map { "\($0)" } ?? "ok")") }; done.fire() }
        ))
        try await done.wait()
        try await Task.sleep(for: .milliseconds(50))
        #expect(events.withLock { $0 } == ["head 200", "a", "b", "c", "end ok"])
    }

    @Test func theStreamResponderGetsAnErrorStatusOnlyAtTheEnd() async throws {
        let session = ScriptedStreamSession([.exchange(status: 404, headers: [:], ["missing"])])
        let events = Locked<[String]>([])
        let done = Signal()
        call(session).stream(to: StreamResponder(
            head: { _ in events.withLock { $0.append("head") } },
            chunk: { _ in events.withLock { $0.append("chunk") } },
            completion: { error in events.withLock { $0.append("end \(error?.statusCode ?? 0) \(String(decoding: error?.responseBody ?? Data(), as: UTF8.self))") }; done.fire() }
        ))
        try await done.wait()
        #expect(events.withLock { $0 } == ["end 404 missing"])
    }

    @Test func cancellingAStreamStopsTheExchangeAndEndsTheStreamOnce() async throws {
        // 50 s of ticks: long enough that a reader starved by parallel tests on a loaded machine
        // still cancels while the body is arriving (100 ticks once ended before the third was read).
        let session = ScriptedStreamSession([.exchange(Array(repeating: "tick", count: 1000), interval: 0.05)])
        let bytes = call(session).bytes()
        var count = 0
        do {
            for try await _ in bytes {
                count += 1
                if count == 3 { bytes.task?.cancel() }
            }
            Issue.record("a cancelled stream throws")
        } catch {
            #expect(error.isCancelled)
        }
        #expect(count >= 3 && count < 1000)
        #expect(await eventually { session.cancellations == 1 })
    }
}
