#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Salvo
import SalvoOpenCombine
import Testing

/// Pager and refresher state publishers under mock firing: order, demand, release, cancellation.
@Suite struct StatePublisherTests {
    struct Book: Codable, Sendable, Equatable, Identifiable {
        let id: Int
    }

    private static let books = (1...25).map(Book.init)
    private static let server = ServerConfig(host: "books.test")

    /// A pager over 25 books in pages of 10; `holdPage` answers that page only after 30 s.
    private func pager(holdPage: Int? = nil) -> Pager<Book> {
        let routes = MockRoutes([.pages("/books", of: Self.books, paging: .pageNumber(pageSize: 10))])
        let firing = FiringFunction.mock { request in
            let answer = routes.response(for: request.request)
            guard let holdPage, request.query["page"] == String(holdPage) else { return answer }
            return answer.delayed(by: 30)
        }
        let call = NetCall(server: Self.server, endpoint: .get("/books"), firingFunction: firing)
        return Pager(call: call, strategy: .pageNumber(pageSize: 10), decoder: .object(), id: \Book.id)
    }

    @Test func theFirstStateIsTheCurrentOne() async throws {
        let pager = pager(holdPage: 1)
        let subscriber = RecordingSubscriber<PagingState<Book>, Never>()
        pager.statePublisher().subscribe(subscriber)
        let first = try #require(try await subscriber.waitForValues(1).first)
        #expect(first.items.isEmpty && !first.isLoading && first.hasMore)
        #expect(pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1))
        try await waitUntil { subscriber.values.last?.isLoading == true }
        pager.cancel()
        try await waitUntil { subscriber.values.last?.isLoading == false }
    }

    @Test func statesArriveInOrderEndingWithTheNewest() async throws {
        let pager = pager()
        let subscriber = RecordingSubscriber<PagingState<Book>, Never>()
        pager.statePublisher().subscribe(subscriber)
        await pager.loadNextPage()
        await pager.loadNextPage()
        try await waitUntil { subscriber.values.last?.pageCount == 2 && subscriber.values.last?.isLoading == false }
        let states = subscriber.values
        // States the subscriber had no time to read may be skipped; none comes back later.
        #expect(states.map(\.items.count) == states.map(\.items.count).sorted())
        #expect(states.last?.items.map(\.id) == Array(1...20))
        #expect(subscriber.completion == nil)
    }

    @Test func aSubscriberThatAsksForNoneGetsTheNewestStateWhenItAsks() async throws {
        let pager = pager()
        let subscriber = RecordingSubscriber<PagingState<Book>, Never>(demand: .none)
        pager.statePublisher().subscribe(subscriber)
        await pager.loadNextPage()
        await pager.loadNextPage()
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(subscriber.values.isEmpty, "no demand, no value")

        subscriber.request(.max(1))
        let states = try await subscriber.waitForValues(1)
        #expect(states.count == 1)
        #expect(states.first?.pageCount == 2, "the newest state, not the first one")
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(subscriber.values.count == 1, "one value per unit of demand")
    }

    @Test func theSubscriptionFinishesWhenThePagerIsReleased() async throws {
        var pager: Pager<Book>? = pager()
        let subscriber = RecordingSubscriber<PagingState<Book>, Never>()
        try #require(pager).statePublisher().subscribe(subscriber)
        await pager?.loadNextPage()
        try await subscriber.waitForValues(1)
        weak let released = pager
        pager = nil
        #expect(released == nil, "a subscription does not keep the pager alive")
        try await subscriber.waitForCompletion()
        #expect(subscriber.isFinished)
    }

    @Test func aCancelledSubscriptionHearsNothingMore() async throws {
        let pager = pager()
        let subscriber = RecordingSubscriber<PagingState<Book>, Never>()
        pager.statePublisher().subscribe(subscriber)
        try await subscriber.waitForValues(1)
        subscriber.cancel()
        await pager.loadNextPage()
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(subscriber.values.count == 1)
        #expect(subscriber.completion == nil)
    }

    @Test func eachSubscriptionObservesOnItsOwn() async throws {
        let pager = pager()
        let first = RecordingSubscriber<PagingState<Book>, Never>()
        let second = RecordingSubscriber<PagingState<Book>, Never>()
        let publisher = pager.statePublisher()
        publisher.subscribe(first)
        publisher.subscribe(second)
        await pager.loadNextPage()
        try await waitUntil { first.values.last?.pageCount == 1 && second.values.last?.pageCount == 1 }
        first.cancel()
        await pager.loadNextPage()
        try await waitUntil { second.values.last?.pageCount == 2 }
        #expect(first.values.last?.pageCount == 1)
    }

    @Test func aRefreshWhileAPageLoadsDiscardsThatPage() async throws {
        let pager = pager(holdPage: 2)
        let subscriber = RecordingSubscriber<PagingState<Book>, Never>()
        pager.statePublisher().subscribe(subscriber)
        await pager.loadNextPage()
        #expect(pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1))
        #expect(pager.isLoading)
        await pager.refresh()
        try await waitUntil { subscriber.values.last?.isRefreshing == false && subscriber.values.last?.isLoading == false }
        let states = subscriber.values
        #expect(states.allSatisfy { $0.items.count <= 10 }, "page 2 never landed")
        #expect(states.last?.items.map(\.id) == Array(1...10))
        #expect(states.last?.hasMore == true)
    }

    @Test func refresherStatesCarryEachValue() async throws {
        let counter = Counter()
        let call = NetCall(server: Self.server, endpoint: .get("/count"), firingFunction: .mock { _ in .json(["n": counter.next()]) })
        let refresher = Refresher(call: call, as: [String: Int].self)
        let subscriber = RecordingSubscriber<RefreshState<[String: Int]>, Never>()
        refresher.statePublisher().subscribe(subscriber)
        await refresher.refresh()
        await refresher.refresh()
        try await waitUntil { subscriber.values.last?.value == ["n": 2] && subscriber.values.last?.isRefreshing == false }
        #expect(subscriber.values.compactMap { $0.value?["n"] } == subscriber.values.compactMap { $0.value?["n"] }.sorted())
        #expect(refresher.value == ["n": 2])
    }
}

/// A thread-safe counter: 1, 2, 3, …
final class Counter: @unchecked Sendable {
    // @unchecked Sendable: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    func next() -> Int { lock.withLock { count += 1; return count } }
}
