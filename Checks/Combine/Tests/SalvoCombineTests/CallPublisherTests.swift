#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoOpenCombine
import SalvoTesting
import Testing

/// Call publishers under mock firing: one value then completion, demand, cancellation, handlers.
@Suite struct CallPublisherTests {
    struct Book: Codable, Sendable, Equatable {
        let id: Int
        let title: String
    }

    struct Problem: Codable, Sendable, Equatable {
        let message: String
    }

    private let server = ServerConfig(host: "api.test", basePath: "v1")
    private let dune = Book(id: 1, title: "Dune")

    private func call(_ firing: FiringFunction, queue: CallbackQueue = .immediate) -> NetCall {
        NetCall(server: server, endpoint: .get("/books/1"), callbackQueue: queue, firingFunction: firing)
    }

    @Test func responsePublisherSendsOneResponseThenFinishes() async throws {
        let subscriber = RecordingSubscriber<NetworkResponse, NetworkError>()
        call(.mock(.json(dune))).responsePublisher().subscribe(subscriber)
        let values = try await subscriber.waitForCompletion()
        #expect(values.count == 1)
        #expect(values.first?.statusCode == 200)
        #expect(try JSONDecoder().decode(Book.self, from: values.first?.data ?? Data()) == dune)
        #expect(subscriber.isFinished)
    }

    @Test func valuePublisherDecodesTheBody() async throws {
        let subscriber = RecordingSubscriber<Book, NetworkError>()
        call(.mock(.json(dune))).valuePublisher(as: Book.self).subscribe(subscriber)
        #expect(try await subscriber.waitForCompletion() == [dune])
        #expect(subscriber.isFinished)
    }

    @Test func aBodyThatIsNotTheValueFailsWithDecodingAndItsBody() async throws {
        let subscriber = RecordingSubscriber<Book, NetworkError>()
        call(.mock(.json(["unexpected": true]))).valuePublisher(as: Book.self).subscribe(subscriber)
        #expect(try await subscriber.waitForCompletion().isEmpty)
        guard case .decoding(let failure) = subscriber.failure else {
            Issue.record("expected .decoding, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(String(decoding: failure.body, as: UTF8.self) == #"{"unexpected":true}"#)
    }

    @Test func aServerErrorFailsWithItsBodyTyped() async throws {
        let subscriber = RecordingSubscriber<Book, APIError<Problem>>()
        call(.mock(.json(Problem(message: "No such book"), status: 404)))
            .valuePublisher(as: Book.self, errorBody: Problem.self)
            .subscribe(subscriber)
        try await subscriber.waitForCompletion()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.failure?.error.statusCode == 404)
        #expect(subscriber.failure?.body == Problem(message: "No such book"))
    }

    @Test func typedCallPublishesItsValueAndItsWholeResponse() async throws {
        let typed = TypedCall<Book, Problem>(call(.mock(.json(dune, headers: ["ETag": "\"v1\""]))))
        let values = RecordingSubscriber<Book, APIError<Problem>>()
        typed.valuePublisher().subscribe(values)
        #expect(try await values.waitForCompletion() == [dune])

        let responses = RecordingSubscriber<TypedResponse<Book>, APIError<Problem>>()
        typed.responsePublisher().subscribe(responses)
        let response = try #require(try await responses.waitForCompletion().first)
        #expect(response.value == dune)
        #expect(response.headers["etag"] == "\"v1\"")
        #expect(responses.isFinished)
    }

    @Test func typedCallFailsWithTheAPIErrorBody() async throws {
        let typed = TypedCall<Book, Problem>(call(.mock(.json(Problem(message: "Slow down"), status: 429))))
        let subscriber = RecordingSubscriber<Book, APIError<Problem>>()
        typed.valuePublisher().subscribe(subscriber)
        try await subscriber.waitForCompletion()
        #expect(subscriber.failure?.body?.message == "Slow down")
        #expect(subscriber.failure?.error.statusCode == 429)
    }

    @Test func nothingIsFiredUntilTheFirstDemand() async throws {
        let spy = FiringSpy(answering: .json(dune))
        let publisher = call(spy.firingFunction).valuePublisher(as: Book.self)
        #expect(spy.calls.isEmpty, "making a publisher fires nothing")

        let subscriber = RecordingSubscriber<Book, NetworkError>(demand: .none)
        publisher.subscribe(subscriber)
        #expect(subscriber.hasSubscription)
        #expect(spy.calls.isEmpty, "subscribing without demand fires nothing")

        subscriber.request(.max(1))
        #expect(try await subscriber.waitForCompletion() == [dune])
        #expect(spy.calls.count == 1)
    }

    @Test func moreDemandFiresNothingMore() async throws {
        let spy = FiringSpy(answering: .json(dune))
        let subscriber = RecordingSubscriber<Book, NetworkError>(demand: .max(1), demandPerValue: .max(5))
        call(spy.firingFunction).valuePublisher(as: Book.self).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(try await subscriber.waitForCompletion() == [dune])
        subscriber.request(.unlimited)
        #expect(spy.calls.count == 1)
        #expect(subscriber.values.count == 1)
    }

    @Test func eachSubscriptionFiresTheCallAgain() async throws {
        let spy = FiringSpy(answering: .json(dune))
        let publisher = call(spy.firingFunction).valuePublisher(as: Book.self)
        let first = RecordingSubscriber<Book, NetworkError>()
        let second = RecordingSubscriber<Book, NetworkError>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(try await first.waitForCompletion() == [dune])
        #expect(try await second.waitForCompletion() == [dune])
        #expect(spy.calls.count == 2)
    }

    @Test func sharingFiresOnceForEverySubscriber() async throws {
        let spy = FiringSpy(answering: .json(dune))
        let shared = call(spy.firingFunction, queue: .main).valuePublisher(as: Book.self).share()
        let first = RecordingSubscriber<Book, NetworkError>()
        let second = RecordingSubscriber<Book, NetworkError>()
        // Both attach before the main queue delivers the outcome.
        await MainActor.run {
            shared.subscribe(first)
            shared.subscribe(second)
        }
        #expect(try await first.waitForCompletion() == [dune])
        #expect(try await second.waitForCompletion() == [dune])
        #expect(spy.calls.count == 1)
    }

    @Test func cancellingBeforeTheValueCancelsTheRequestAndSendsNothing() async throws {
        let log = ResponderLog()
        var slow = call(.mock(.json(dune).delayed(by: 30)))
        slow.responder = log.responder
        let subscriber = RecordingSubscriber<Book, NetworkError>()
        slow.valuePublisher(as: Book.self).subscribe(subscriber)
        subscriber.cancel()
        let events = await log.waitForOutcome(timeout: 5)
        #expect(events.contains(.error(.cancelled)), "the call's own handlers hear the cancellation: \(events)")
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil, "a cancelled subscription receives no completion")
    }

    @Test func cancellingBeforeAnyDemandFiresNothing() async throws {
        let spy = FiringSpy(answering: .json(dune))
        let subscriber = RecordingSubscriber<Book, NetworkError>(demand: .none)
        call(spy.firingFunction).valuePublisher(as: Book.self).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.unlimited)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(spy.calls.isEmpty)
        #expect(subscriber.values.isEmpty && subscriber.completion == nil)
    }

    @Test func droppingTheCancellableCancelsTheRequest() async throws {
        let log = ResponderLog()
        var slow = call(.mock(.json(dune).delayed(by: 30)))
        slow.responder = log.responder
        var cancellable: AnyCancellable? = slow.responsePublisher().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(cancellable != nil)
        cancellable = nil
        #expect(await log.waitForOutcome(timeout: 5).contains(.error(.cancelled)))
    }

    @Test func theCallsOwnHandlersRunBeforeThePublisherDelivers() async throws {
        let order = OrderLog()
        var booked = call(.mock(.json(dune)))
        booked.responder.dataHandler = { _ in order.append("dataHandler") }
        let cancellable = booked.valuePublisher(as: Book.self).sink(
            receiveCompletion: { _ in order.append("completion") },
            receiveValue: { _ in order.append("value") }
        )
        try await waitUntil { order.entries.count == 3 }
        #expect(order.entries == ["dataHandler", "value", "completion"])
        cancellable.cancel()
    }

    @Test func valuesArriveOnTheCallsCallbackQueue() async throws {
        let queue = DispatchQueue(label: "callbacks")
        queue.suspend()
        let spy = FiringSpy(answering: .json(dune))
        let subscriber = RecordingSubscriber<Book, NetworkError>()
        call(spy.firingFunction, queue: .queue(queue)).valuePublisher(as: Book.self).subscribe(subscriber)
        _ = await spy.waitForCalls(1)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(subscriber.values.isEmpty, "the outcome waits for the call's queue")
        queue.resume()
        #expect(try await subscriber.waitForCompletion() == [dune])
    }

    @Test func actionsRunForPublishedCalls() async throws {
        let spy = FiringSpy(answering: .json(dune))
        var guarded = call(spy.firingFunction)
        guarded.endpoint = guarded.endpoint.requiringAuthentication()
        guarded.actions = [AuthTokenAction { "t0ken" }]
        let subscriber = RecordingSubscriber<Book, NetworkError>()
        guarded.valuePublisher(as: Book.self).subscribe(subscriber)
        #expect(try await subscriber.waitForCompletion() == [dune])
        #expect(spy.sentRequests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t0ken")
    }

    @Test func aRequestThatCannotBeBuiltFailsWithoutReachingTheWire() async throws {
        let spy = FiringSpy(answering: .json(dune))
        let broken = NetCall(server: ServerConfig(host: "[]"), endpoint: .get("/books"), callbackQueue: .immediate, firingFunction: spy.firingFunction)
        let subscriber = RecordingSubscriber<NetworkResponse, NetworkError>()
        broken.responsePublisher().subscribe(subscriber)
        try await subscriber.waitForCompletion()
        guard case .invalidRequest = subscriber.failure else {
            Issue.record("expected .invalidRequest, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(spy.sentRequests.isEmpty)
    }
}

/// Strings appended from any thread, in order.
final class OrderLog: @unchecked Sendable {
    // @unchecked Sendable: `recorded` is only touched while `lock` is held.
    private let lock = NSLock()
    private var recorded: [String] = []

    func append(_ entry: String) { lock.withLock { recorded.append(entry) } }

    var entries: [String] { lock.withLock { recorded } }
}
