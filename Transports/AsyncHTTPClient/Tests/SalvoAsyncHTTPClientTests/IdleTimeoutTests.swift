import Foundation
import NIOCore
@testable import SalvoAsyncHTTPClient
import Testing

/// `URLRequest.timeoutInterval` as the exchange's idle timeout: exact, and never a crash on odd values.
@Suite struct IdleTimeoutTests {
    @Test(arguments: [(0.25, 250_000_000), (1, 1_000_000_000), (60, 60_000_000_000), (0.001, 1_000_000), (1e-12, 1)] as [(Double, Int64)])
    func anIntervalIsKeptToTheNanosecond(seconds: Double, nanoseconds: Int64) {
        #expect(IdleTimeout.amount(for: seconds) == .nanoseconds(nanoseconds))
    }

    @Test(arguments: [0, -1, -Double.infinity, Double.nan])
    func noPositiveIntervalMeansNoTimeout(_ seconds: Double) {
        #expect(IdleTimeout.amount(for: seconds) == nil)
    }

    @Test(arguments: [Double.infinity, 1e300, Double(Int64.max)])
    func aHugeIntervalIsCappedInsteadOfOverflowing(_ seconds: Double) {
        #expect(IdleTimeout.amount(for: seconds) == .nanoseconds(Int64(IdleTimeout.longest * 1_000_000_000)))
    }
}
