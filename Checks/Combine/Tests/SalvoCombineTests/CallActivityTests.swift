#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Salvo
import SalvoOpenCombine
import SalvoTesting
import Testing

/// CallActivity under mock firing: every way of firing counts, in and out exactly once.
@Suite struct CallActivityTests {
    private let server = ServerConfig(host: "api.test")

    /// A call reporting to `activity`, answered after `delay` seconds (cancel it to end sooner).
    private func call(reportingTo activity: CallActivity, delay: TimeInterval = 0, server: ServerConfig? = nil) -> NetCall {
        let firing = FiringFunction.mock(.json(["ok": true]).delayed(by: delay)).reportingActivity(to: activity)
        return NetCall(server: server ?? self.server, endpoint: .get("/work"), callbackQueue: .immediate, firingFunction: firing)
    }

    @Test func aCallIsInProgressFromFiringUntilItsOutcome() async throws {
        let activity = CallActivity()
        let subscriber = RecordingSubscriber<Bool, Never>()
        activity.inProgressPublisher().subscribe(subscriber)
        let log = ResponderLog()
        var slow = call(reportingTo: activity, delay: 30)
        slow.responder = log.responder
        let task = slow.fire()
        #expect(activity.isInProgress)
        #expect(activity.callsInFlight == 1)
        task.cancel()
        _ = await log.waitForOutcome()
        #expect(!activity.isInProgress)
        #expect(try await subscriber.waitForValues(3) == [false, true, false])
    }

    @Test func overlappingCallsAreOneBusyPeriod() async throws {
        let activity = CallActivity()
        let subscriber = RecordingSubscriber<Bool, Never>()
        activity.inProgressPublisher().subscribe(subscriber)
        let first = call(reportingTo: activity, delay: 30).fire()
        let second = call(reportingTo: activity, delay: 30).fire()
        #expect(activity.callsInFlight == 2)
        first.cancel()
        #expect(activity.callsInFlight == 1)
        second.cancel()
        try await waitUntil { activity.callsInFlight == 0 }
        #expect(try await subscriber.waitForValues(3) == [false, true, false])
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(subscriber.values.count == 3, "no change for the second call's start or the first's end")
    }

    @Test func publishersAsyncCallsAndRefusedRequestsAllCountOut() async throws {
        let activity = CallActivity()
        _ = try await call(reportingTo: activity).response()
        let published = RecordingSubscriber<NetworkResponse, NetworkError>()
        call(reportingTo: activity).responsePublisher().subscribe(published)
        try await published.waitForCompletion()
        // A request that cannot be built still reaches its error handler, so it counts out too.
        let refused = call(reportingTo: activity, server: ServerConfig(host: "[]"))
        await #expect(throws: NetworkError.self) { try await refused.response() }
        #expect(activity.callsInFlight == 0)
    }

    @Test func aPagersPagesCount() async throws {
        let activity = CallActivity()
        let routes = MockRoutes([.pages("/items", of: Array(1...15), paging: .offset(limit: 10))])
        let call = NetCall(server: server, endpoint: .get("/items"), firingFunction: FiringFunction.mock(routes).reportingActivity(to: activity))
        let subscriber = RecordingSubscriber<Bool, Never>()
        activity.inProgressPublisher().subscribe(subscriber)
        let pager = Pager<Int>(call: call, strategy: .offset(limit: 10), decoder: .object())
        _ = try await pager.loadAll()
        #expect(pager.items == Array(1...15))
        #expect(activity.callsInFlight == 0)
        // Each page counts in and out; the second may start before the first's handlers end.
        try await waitUntil { subscriber.values.count >= 3 && subscriber.values.last == false }
        #expect(zip(subscriber.values, subscriber.values.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test func thePublisherFinishesWhenTheActivityIsReleased() async throws {
        var activity: CallActivity? = CallActivity()
        let subscriber = RecordingSubscriber<Bool, Never>()
        try #require(activity).inProgressPublisher().subscribe(subscriber)
        try await subscriber.waitForValues(1)
        activity = nil
        try await subscriber.waitForCompletion()
        #expect(subscriber.values == [false])
        #expect(subscriber.isFinished)
    }
}
