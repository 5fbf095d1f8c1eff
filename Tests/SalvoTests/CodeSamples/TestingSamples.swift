import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// Docs/Testing.md's cassette sample, kept here so it cannot rot. The guide leaves out `in:` (the
// folder is Fixtures/ next to the test file); here the folder is a fresh temporary one, with no
// fixture in it.

@Suite struct TestingSamples {
    static let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-testing-samples-\(UUID().uuidString)")

    @Test(.cassette(in: TestingSamples.fixtures)) func checkoutShowsTheTotal() async throws {   // replays; never reaches the network
        let api = RecordReplaySamples.ShopAPI(firing: try #require(Cassette.current).firingFunction)
        guard ProcessInfo.processInfo.environment[FixtureMode.environmentVariable] == nil else { return }
        // Safe by default: without a recorded fixture the call fails and says how to record it.
        let error = await #expect(throws: NetworkError.self) { try await api.cart().response() }
        guard case .incompleteSetup(let problem) = error else {
            Issue.record("expected a missing fixture, got \(String(describing: error))")
            return
        }
        #expect(problem.description.contains(FixtureMode.environmentVariable), "\(problem)")
    }

    /// Docs/Testing.md, "Time without waiting".
    @Test func timeWithoutWaiting() async throws {
        let server = ServerConfig(host: "api.test")
        let session = ScriptedSession(.status(503), .status(200, body: Data("ok".utf8)))
        let time = TestClock()
        let call = NetCall(server: server, endpoint: .get("/x"), actions: [RetryAction(baseDelay: 30, jitter: 0)],
                           firingFunction: .session(session, clock: time.clock))   // or .mock(…, clock: time.clock)
        let response = Task { try await call.response() }
        await time.waitForSleepers(1)   // the retry is waiting…
        #expect(time.sleeps == [30])    // …for the back-off
        time.advance(by: 30)            // the second attempt fires now
        #expect(try await response.value.data == Data("ok".utf8))
    }
}
