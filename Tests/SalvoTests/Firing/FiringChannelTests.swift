import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo
import SalvoTesting

/// Issue 28: each way of firing tells the firing function where its outcome goes, instead of
/// rewriting the call it fires.
@Suite struct FiringChannelTests {
    private let server = ServerConfig(host: "api.example.com")

    /// A firing function answering with `response` that records each call it receives and each
    /// end its channel reports.
    private final class Watch: Sendable {
        let calls = Locked<[NetCall]>([])
        let ends = Locked<[NetworkError?]>([])
        let firing: FiringFunction

        init(answering response: MockResponse) {
            let base = FiringFunction.mock(response, clock: .immediate)
            let calls = calls, ends = ends
            firing = FiringFunction { call, channel in
                calls.withLock { $0.append(call) }
                return base(call, channel.onFinish { error in ends.withLock { $0.append(error) } })
            }
        }
    }

    private func call(_ watch: Watch) -> NetCall {
        NetCall(server: server, endpoint: .get("/books/1"), firingFunction: watch.firing)
    }

    @Test func theAsyncAPIAndStreamsHandTheFiringFunctionTheCallAsConfigured() async throws {
        let watch = Watch(answering: .json(["id": 1]))
        let log = ResponderLog()
        var call = call(watch)
        call.responder = log.responder
        _ = try await call.response()
        _ = try await call.bytes().reduce(into: Data()) { $0.append($1) }
        let fired = watch.calls.withLock { $0 }
        #expect(fired.count == 2)
        for call in fired {
            guard case .main = call.callbackQueue else {
                Issue.record("the firing function saw callback queue \(call.callbackQueue), not the call's .main")
                continue
            }
        }
        #expect(log.events.isEmpty, "the async API and streams leave the call's responder alone")
    }

    @Test func theAsyncAPIDoesNotWaitForTheCallsCallbackQueue() async throws {
        let stopped = DispatchQueue(label: "stopped")
        stopped.suspend()
        defer { stopped.resume() }
        var call = call(Watch(answering: .json(["id": 1])))
        call.callbackQueue = .queue(stopped)
        let response = try await call.response()
        #expect(response.statusCode == 200)
    }

    @Test func everyWayOfFiringReportsItsEndToTheChannelOnce() async throws {
        let watch = Watch(answering: .json(["id": 1]))
        let call = call(watch)
        let log = ResponderLog()
        var logged = call
        logged.responder = log.responder
        logged.callbackQueue = .immediate
        logged.fire()
        _ = await log.waitForOutcome()
        _ = try await call.value(as: [String: Int].self)
        _ = try await call.bytes().reduce(into: Data()) { $0.append($1) }
        _ = try await call.transfer().response
        let result = await withCheckedContinuation { continuation in
            call.fire(on: .immediate) { continuation.resume(returning: $0) }
        }
        #expect(throws: Never.self) { try result.get() }
        #expect(watch.ends.withLock { $0.count } == 5)
        #expect(watch.ends.withLock { $0.allSatisfy { $0 == nil } })
    }

    @Test func theEndCarriesTheErrorAndComesBeforeTheHandlers() async throws {
        let order = Locked<[String]>([])
        let base = FiringFunction.mock(.status(500), clock: .immediate)
        var call = NetCall(server: server, endpoint: .get("/books/1"), callbackQueue: .immediate, firingFunction: FiringFunction { call, channel in
            base(call, channel.onFinish { error in order.withLock { $0.append("end \(error?.statusCode ?? 0)") } })
        })
        call.responder.serverErrorHandler = { error in order.withLock { $0.append("handler \(error.statusCode ?? 0)") } }
        call.fire()
        #expect(order.withLock { $0 } == ["end 500", "handler 500"])
    }

    @Test func aCancelledFiringEndsOnceWithCancelled() async throws {
        let ends = Locked<[NetworkError?]>([])
        let base = FiringFunction.mock(MockResponse.status(200).delayed(by: 30))
        let call = NetCall(server: server, endpoint: .get("/slow"), callbackQueue: .immediate, firingFunction: FiringFunction { call, channel in
            base(call, channel.onFinish { error in ends.withLock { $0.append(error) } })
        })
        let task = call.fire()
        task.cancel()
        task.cancel()
        let recorded = ends.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first??.isCancelled == true)
    }
}
