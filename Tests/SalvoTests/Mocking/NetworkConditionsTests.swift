import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct NetworkConditionsTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func theSameSeedDrawsTheSameLatenciesAndFailures() {
        let conditions = NetworkConditions(latency: 0.1...2, failureRate: 0.3, seed: 99)
        var first = SplitMix64(seed: conditions.seed), second = SplitMix64(seed: conditions.seed)
        let a = (0..<50).map { _ in conditions.draw(using: &first) }
        let b = (0..<50).map { _ in conditions.draw(using: &second) }
        #expect(a == b)
        #expect(a.allSatisfy { (0.1...2).contains($0.delay) })
        var other = SplitMix64(seed: 100)
        #expect((0..<50).map { _ in conditions.draw(using: &other) } != a)
    }

    @Test(arguments: [0.0, 0.25, 1.0])
    func failureRateIsHonouredOverManyDraws(rate: Double) {
        let conditions = NetworkConditions(failureRate: rate, seed: 5)
        var generator = SplitMix64(seed: 5)
        let failures = (0..<4_000).filter { _ in conditions.draw(using: &generator).fails }.count
        #expect(abs(Double(failures) / 4_000 - rate) < 0.03)
    }

    @Test func carelessValuesAreClampedInsteadOfTrapping() {
        var generator = SplitMix64(seed: 1)
        let draw = NetworkConditions(latency: -5...(-1), failureRate: .nan).draw(using: &generator)
        #expect(draw == .init(delay: 0, fails: false))
        #expect(NetworkConditions.clampedDelay(.infinity) == 3_600)
    }

    @Test func seededFailuresRepeatAcrossTwoMockSessions() async {
        func outcomes() async -> [Bool] {
            let firing = FiringFunction.mock(.status(200), conditions: NetworkConditions(failureRate: 0.5, failure: .timedOut, seed: 42))
            let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), callbackQueue: .immediate, firingFunction: firing)
            var results: [Bool] = []
            for _ in 0..<20 { results.append((try? await call.response()) != nil) }
            return results
        }
        let first = await outcomes()
        #expect(await outcomes() == first)
        #expect(first.contains(true) && first.contains(false))
    }

    @Test func offlineConditionsFailEveryCallAsATransportError() async {
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), callbackQueue: .immediate,
                           firingFunction: .mock(.json(["a": 1]), conditions: .offline))
        #expect(await call.fireAndRecord() == [.task, .noResponse, .error(.transport(URLError(.notConnectedToInternet))), .errorData(nil)])
    }

    @Test func latencyDelaysTheAnswerWithoutBlockingTheFiringThread() async throws {
        let time = TestClock()
        let log = ResponderLog()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), responder: log.responder, callbackQueue: .immediate,
                           firingFunction: .mock(.text("late").delayed(by: 0.3), clock: time.clock))
        call.fire()
        #expect(await time.waitForSleepers(1))
        #expect(!log.isFinished)
        #expect(time.sleeps == [0.3])
        time.advance(by: 0.3)
        let events = await log.waitForOutcome()
        #expect(events.last == .data(Data("late".utf8)))
    }

    @Test func cancellingDuringLatencyDeliversCancelledPromptlyAndOnce() async throws {
        let log = ResponderLog()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), responder: log.responder, callbackQueue: .immediate,
                           firingFunction: .mock(.text("never"), conditions: NetworkConditions(latency: 2...2)))
        let task = call.fire()
        let start = Date()
        task.cancel()
        let events = await log.waitForOutcome()
        #expect(Date().timeIntervalSince(start) < 1, "cancelled well before the 2 s latency")
        #expect(events == [.task, .noResponse, .error(.cancelled), .errorData(nil)])
        #expect(log.events.count == 4, "the dropped timer must not deliver a second outcome")
    }

    @Test func mockSessionCompletesExactlyOnceWhenCancelledDuringLatency() async throws {
        let count = Locked<[String]>([])
        let session = MockSession(conditions: NetworkConditions(latency: 0.2...0.2)) { _ in .status(200) }
        let task = session.start(URLRequest(url: URL(fileURLWithPath: "/x"))) { _, _, error in
            count.withLock { $0.append((error as? URLError)?.code == .cancelled ? "cancelled" : "answered") }
        }
        task.cancel()
        task.cancel()
        #expect(await eventually { !count.withLock { $0 }.isEmpty })
        // Nothing to await for "no second completion": give the 0.2 s latency's answer time to show.
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(count.withLock { $0 } == ["cancelled"])
    }

    @Test func swiftTaskCancellationDuringLatencyThrowsCancelled() async {
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), callbackQueue: .immediate,
                           firingFunction: .mock(.text("slow").delayed(by: 5)))
        let work = Task { try await call.response() }
        try? await Task.sleep(nanoseconds: 20_000_000)
        let start = Date()
        work.cancel()
        let result = await work.result
        // Well before the 5 s latency ends (a loaded CI machine once took 1.85 s to get there).
        #expect(Date().timeIntervalSince(start) < 4)
        #expect(throws: NetworkError.self) { try result.get() }
    }
}
