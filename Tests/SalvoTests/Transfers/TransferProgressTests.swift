import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Progress: throttled reports, 100% once on success, the async form, and real transfers.
@Suite struct TransferProgressTests {
    @Test func reportsAreThrottledAndTheLastIsExactlyOne100Percent() {
        let reports = Locked<[TransferProgress]>([])
        let reporter = ProgressReporter({ progress in reports.withLock { $0.append(progress) } }, on: .immediate)
        for received in stride(from: 1_000, through: 100_000, by: 1_000) {
            reporter.report(TransferProgress(direction: .download, completedBytes: Int64(received), expectedBytes: nil))
        }
        reporter.complete()
        reporter.complete()
        let all = reports.withLock { $0 }
        #expect(all.count == 2, "the first report, then the final one; the rest fell within 0.1 s")
        #expect(all.first?.completedBytes == 1_000)
        #expect(all.last == TransferProgress(direction: .download, completedBytes: 100_000, expectedBytes: 100_000))
        #expect(all.last?.fractionCompleted == 1)
    }

    @Test func aReportThatReaches100PercentIsNotRepeatedAtTheEnd() {
        let reports = Locked<[TransferProgress]>([])
        let reporter = ProgressReporter({ progress in reports.withLock { $0.append(progress) } }, on: .immediate)
        reporter.report(TransferProgress(direction: .upload, completedBytes: 10, expectedBytes: 100))
        reporter.report(TransferProgress(direction: .upload, completedBytes: 100, expectedBytes: 100))
        reporter.complete()
        #expect(reports.withLock { $0.map(\.completedBytes) } == [10, 100])
    }

    @Test func aRetryStartsProgressOver() {
        let reports = Locked<[TransferProgress]>([])
        let reporter = ProgressReporter({ progress in reports.withLock { $0.append(progress) } }, on: .immediate)
        reporter.report(TransferProgress(direction: .upload, completedBytes: 100, expectedBytes: 100))
        reporter.report(TransferProgress(direction: .upload, completedBytes: 5, expectedBytes: 100))
        #expect(reports.withLock { $0.map(\.completedBytes) } == [100, 5])
    }

    /// The 10-a-second limit is read on the firing function's clock: a mock paced under a test
    /// clock reports as the test advances it, as it would over the seconds it stands for.
    @Test func mockProgressUnderATestClockMovesAsTheTestAdvancesIt() async throws {
        let time = TestClock()
        let reports = Locked<[TransferProgress]>([])
        let call = NetCall(
            server: ServerConfig(scheme: "https", host: "api.example"),
            endpoint: Endpoint(method: .post, path: "/photos", body: .data(Data(count: 100_000), contentType: "image/jpeg")),
            responder: NetworkResponder(progressHandler: { progress in reports.withLock { $0.append(progress) } }),
            callbackQueue: .immediate,
            firingFunction: .mock(.status(201), conditions: NetworkConditions(bandwidth: 100_000...100_000), clock: time.clock)
        )
        let task = call.fire()
        // 100 kB at 100 kB/s: one second, in 50 ms ticks (a short real wait per tick: the last
        // tick leaves no sleeper behind, and a slow machine only loops again).
        for _ in 0..<200 where !task.isFinished {
            if await time.waitForSleepers(1, timeout: 0.2) { time.advance(by: 0.05) }
        }
        #expect(task.isFinished)
        let sent = reports.withLock { $0 }.filter { $0.direction == .upload }
        #expect(sent.count >= 8, "about one report every 0.1 s of the test clock: \(sent.map(\.completedBytes))")
        #expect(sent.map(\.completedBytes) == sent.map(\.completedBytes).sorted())
        #expect(sent.filter { $0.fractionCompleted == 1 }.count == 1)
        #expect(sent.last == TransferProgress(direction: .upload, completedBytes: 100_000, expectedBytes: 100_000))
    }

    @Test func theFractionIsNilWhileTheTotalIsUnknown() {
        #expect(TransferProgress(direction: .download, completedBytes: 5, expectedBytes: nil).fractionCompleted == nil)
        #expect(TransferProgress(direction: .download, completedBytes: 0, expectedBytes: 0).fractionCompleted == 1)
        #expect(TransferProgress(direction: .download, completedBytes: 50, expectedBytes: 200).fractionCompleted == 0.25)
    }

    @Test func aDownloadFromTheLoopbackServerReportsProgressThenTheBody() async throws {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        let call = NetCall(server: server, endpoint: .get("/stream/chunked", query: ["chunks": "20", "size": "100000", "delay": "0.02"]))
        let transfer = call.transfer()
        var reports: [TransferProgress] = []
        for await progress in transfer.progress { reports.append(progress) }
        let response = try await transfer.response
        #expect(response.data.count == 2_000_000)
        #expect(reports.count >= 2, "progress arrived while the body did")
        #expect(reports.allSatisfy { $0.direction == .download })
        #expect(reports.map(\.completedBytes) == reports.map(\.completedBytes).sorted())
        #expect(reports.last == TransferProgress(direction: .download, completedBytes: 2_000_000, expectedBytes: 2_000_000))
    }

    @Test func anUploadToTheLoopbackServerReportsProgressUpTo100Percent() async throws {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        let body = Data(repeating: 7, count: 8 << 20)
        let call = NetCall(server: server, endpoint: Endpoint(method: .post, path: "/echo/upload", body: .data(body, contentType: "application/octet-stream")))
        let transfer = call.transfer()
        var uploads: [TransferProgress] = []
        for await progress in transfer.progress where progress.direction == .upload { uploads.append(progress) }
        let response = try await transfer.response
        #expect(response.statusCode == 200)
        #expect(uploads.last == TransferProgress(direction: .upload, completedBytes: 8 << 20, expectedBytes: 8 << 20))
    }

    @Test func theResponderHearsProgressOnItsQueueBeforeTheBody() async throws {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        let events = Locked<[String]>([])
        let done = Signal()
        let queue = DispatchQueue(label: "progress")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let offQueue = Locked(0)
        var call = NetCall(server: server, endpoint: .get("/stream/bytes", query: ["n": "3000000"]))
        call.callbackQueue = .queue(queue)
        call.responder.progressHandler = { progress in
            if DispatchQueue.getSpecific(key: key) != true { offQueue.withLock { $0 += 1 } }
            events.withLock { $0.append("progress \(progress.completedBytes)") }
        }
        call.responder.dataHandler = { data in events.withLock { $0.append("data \(data.count)") }; done.fire() }
        call.fire()
        try await done.wait()
        let all = events.withLock { $0 }
        #expect(all.last == "data 3000000")
        #expect(all.dropLast().last == "progress 3000000", "100% comes once, right before the body")
        #expect(all.filter { $0 == "progress 3000000" }.count == 1)
        #expect(offQueue.withLock { $0 } == 0, "every report runs on the call's callback queue")
    }
}
