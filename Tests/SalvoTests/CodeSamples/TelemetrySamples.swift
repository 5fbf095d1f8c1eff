import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// The Salvo-only code in Docs/Telemetry.md (attempt metrics), kept here so it cannot rot; the
// telemetry package's samples are compiled in Integrations/Telemetry's tests.
enum TelemetryGuide {
    static func printAttempts(firingFunction: FiringFunction = .production) async throws -> NetworkResponse {
        var api = ServerConfig(host: "api.example.com")
        api.collectsMetrics = true
        api.firingFunction = firingFunction   // the app leaves this out

        let response = try await NetCall(server: api, endpoint: .get("/books")).response()
        for attempt in response.metrics {
            print("attempt \(attempt.attempt): head after \(attempt.timeToHead ?? 0) s,",
                  "\(attempt.bytesSent) B sent, \(attempt.bytesReceived) B received,",
                  "\(attempt.redirectCount) redirects")
        }
        return response
    }

    /// The task metrics sample: one line per transaction; returns how many it printed.
    static func printTransactions(of response: NetworkResponse) -> Int {
        var printed = 0
        for task in response.metrics.last?.taskMetrics ?? [] {
            for transaction in task.transactionMetrics {
                let connection = transaction.isReusedConnection ? "reused" : "new"
                print(transaction.request.url?.path ?? "", "\(connection) connection,", transaction.networkProtocolName ?? "?")
                printed += 1
            }
        }
        return printed
    }
}

@Suite struct TelemetrySamplesTests {
    @Test func theAttemptMetricsSampleReadsEveryAttempt() async throws {
        let response = try await TelemetryGuide.printAttempts(firingFunction: .mock(.text("[]"), clock: TestClock().clock))
        let metrics = try #require(response.metrics.first)
        #expect(response.metrics.count == 1)
        #expect(metrics.attempt == 1 && metrics.timeToHead == 0 && metrics.duration == 0)
        #expect(metrics.bytesSent == 0 && metrics.bytesReceived == 2 && metrics.redirectCount == 0)
        #expect(metrics.cacheAnswer == nil && metrics.taskMetrics.isEmpty)
    }

    @Test func theTaskMetricsSampleHasNothingToPrintWithoutURLSession() async throws {
        let response = try await TelemetryGuide.printAttempts(firingFunction: .mock(.text("[]"), clock: TestClock().clock))
        #expect(TelemetryGuide.printTransactions(of: response) == 0)
    }
}
