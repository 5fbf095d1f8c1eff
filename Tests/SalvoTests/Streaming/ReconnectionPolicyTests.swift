import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// The waits a ``ReconnectionPolicy`` gives before each reconnection.
@Suite struct ReconnectionPolicyTests {
    @Test func theDefaultsAreTheBrowsersWithABackoff() {
        let policy = ReconnectionPolicy()
        #expect(policy.delay == 3)
        #expect(policy.maximumDelay == 30)
        #expect(policy.jitter == 0.5)
        #expect(policy.backoffResetInterval == 60)
        #expect(policy.idleTimeout == nil, "the standard has none")
        #expect(policy.maximumFailures == 5)
    }

    static let backoffs: [(TimeInterval, [TimeInterval])] = [(3, [3, 6, 12, 24, 30, 30]), (45, [45, 45, 45]), (0.5, [0.5, 1, 2, 4])]

    @Test(arguments: backoffs)
    func waitsDoubleUpToTheMaximumUnlessTheServerAskedForMore(_ reconnectionTime: TimeInterval, _ expected: [TimeInterval]) {
        let policy = ReconnectionPolicy(jitter: 0)
        #expect(expected.indices.map { policy.wait(before: $0, reconnectionTime: reconnectionTime) } == expected)
    }

    @Test(arguments: [0.0, 0.5, 0.999])
    func jitterTakesAtMostItsShareAndNeverGoesBelowTheReconnectionTime(_ random: Double) {
        var policy = ReconnectionPolicy(jitter: 0.5)
        policy.randomFraction = { random }
        #expect(policy.wait(before: 0, reconnectionTime: 3) == 3, "the first reconnection waits the reconnection time exactly")
        let wait = policy.wait(before: 3, reconnectionTime: 3)
        #expect(wait == 24 * (1 - 0.5 * random))
        #expect(policy.wait(before: 1, reconnectionTime: 3) >= 3)
    }

    @Test func outOfRangeSettingsAreClamped() {
        let policy = ReconnectionPolicy(jitter: 7, idleTimeout: -1, maximumFailures: -2)
        #expect(policy.jitter == 1)
        #expect(policy.idleTimeout == nil)
        #expect(policy.maximumFailures == 0)
    }
}
