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

/// Publishers firing real requests at the loopback server (Tests/SalvoTests/Transport/Support/Servers/loopback_server.py).
@Suite struct PublisherIntegrationTests {
    /// The `/echo` route's answer, in part.
    struct Echo: Decodable, Sendable {
        let method: String
        let path: String
        let query: String
    }

    /// The `/status/N` route's body.
    struct StatusProblem: Decodable, Sendable {
        let status: Int
        let message: String
    }

    /// An item of the `/list/<key>/…` routes.
    struct ListItem: Decodable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    private func loopback() async throws -> ServerConfig {
        ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
    }

    @Test func aValueArrivesFromTheServerOnceThenFinishes() async throws {
        let call = NetCall(server: try await loopback(), endpoint: .get("/echo/combine", query: ["q": "1"]))
        let subscriber = RecordingSubscriber<Echo, NetworkError>()
        call.valuePublisher(as: Echo.self).subscribe(subscriber)
        let values = try await subscriber.waitForCompletion()
        #expect(values.map(\.path) == ["/echo/combine"])
        #expect(values.first?.query == "q=1")
        #expect(subscriber.isFinished)
    }

    @Test func aTypedCallFailsWithTheServersErrorBody() async throws {
        let call = TypedCall<Echo, StatusProblem>(NetCall(server: try await loopback(), endpoint: .get("/status/422")))
        let subscriber = RecordingSubscriber<Echo, APIError<StatusProblem>>()
        call.valuePublisher().subscribe(subscriber)
        try await subscriber.waitForCompletion()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.failure?.error.statusCode == 422)
        #expect(subscriber.failure?.body?.status == 422)
    }

    @Test func eachSubscriptionSendsItsOwnRequestAndOnlyOnDemand() async throws {
        let path = "/echo/\(uniqueKey())"
        let call = NetCall(server: try await loopback(), endpoint: .get(EndpointPath(percentEncoded: path)))
        let publisher = call.responsePublisher()
        let waiting = RecordingSubscriber<NetworkResponse, NetworkError>(demand: .none)
        publisher.subscribe(waiting)
        let first = RecordingSubscriber<NetworkResponse, NetworkError>()
        let second = RecordingSubscriber<NetworkResponse, NetworkError>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        try await first.waitForCompletion()
        try await second.waitForCompletion()
        #expect(try await LoopbackServer.count(path: path) == 2, "the subscriber that asked for nothing sent nothing")
        waiting.request(.max(1))
        try await waiting.waitForCompletion()
        #expect(try await LoopbackServer.count(path: path) == 3)
    }

    @Test func cancellingTheSubscriptionCancelsTheRequestInFlight() async throws {
        let log = ResponderLog()
        var call = NetCall(server: try await loopback(), endpoint: .get("/slow", query: ["delay": "10"]))
        call.responder = log.responder
        let subscriber = RecordingSubscriber<NetworkResponse, NetworkError>()
        let started = Date()
        call.responsePublisher().subscribe(subscriber)
        try await Task.sleep(nanoseconds: 200_000_000)
        subscriber.cancel()
        #expect(await log.waitForOutcome(timeout: 5).contains(.error(.cancelled)))
        #expect(Date().timeIntervalSince(started) < 5, "the request did not run its 10 s")
        #expect(subscriber.values.isEmpty && subscriber.completion == nil)
    }

    @Test func aPagersStatesAndActivityFollowAServerListToItsEnd() async throws {
        let activity = CallActivity()
        let busy = RecordingSubscriber<Bool, Never>()
        activity.inProgressPublisher().subscribe(busy)
        let call = NetCall(
            server: try await loopback(),
            endpoint: .get(EndpointPath(percentEncoded: "/list/\(uniqueKey())/pages"), query: ["total": "25"]),
            firingFunction: FiringFunction.production.reportingActivity(to: activity)
        )
        let pager = Pager<ListItem>(call: call, strategy: .pageNumber(pageSize: 10), decoder: .object())
        let states = RecordingSubscriber<PagingState<ListItem>, Never>()
        pager.statePublisher().subscribe(states)
        _ = try await pager.loadAll()
        try await waitUntil { states.values.last?.hasMore == false && states.values.last?.isLoading == false }
        #expect(states.values.last?.items.map(\.id) == Array(1...25))
        try await waitUntil { !activity.isInProgress && busy.values.count >= 3 && busy.values.last == false }
        // A page fired from the previous page's handlers keeps the activity busy: no flicker between pages.
        let changes = busy.values
        #expect(changes.count >= 3 && changes.first == false)
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0 != $1 }, "only changes are published: \(changes)")
    }
}
