import Foundation
import Observation
import Testing
@_spi(Transport) @testable import Salvo
import SalvoObservation

/// The `@Observable` paging model, observed with `withObservationTracking` as SwiftUI observes it.
/// (Swift Testing takes availability on tests, not on suites: each test states it.)
@MainActor @Suite struct PagingModelTests {
    /// How many times each observed property of a model announced a change.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor final class ChangeLog {
        private(set) var counts: [String: Int] = [:]

        /// Observes `read` of `model` under `name`, again after every change, until the model is gone.
        func track<Model: Observable & AnyObject & Sendable, Value>(
            _ name: String,
            of model: Model,
            _ read: @escaping @MainActor @Sendable (Model) -> Value
        ) {
            withObservationTracking {
                _ = read(model)
            } onChange: { [weak self, weak model] in
                // Called as the property is about to change, on the actor that changes it.
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.counts[name, default: 0] += 1
                    if let model { self.track(name, of: model, read) }
                }
            }
        }

        /// Tracks every property a list view reads.
        func trackAll<Item>(of model: PagingModel<Item>) {
            track("items", of: model) { $0.items }
            track("isLoading", of: model) { $0.isLoading }
            track("isRefreshing", of: model) { $0.isRefreshing }
            track("error", of: model) { $0.error }
            track("hasMore", of: model) { $0.hasMore }
        }

        var total: Int { counts.values.reduce(0, +) }
    }

    /// Runs `operation` on the model while the server holds its request, checks the model shows
    /// the load, then lets the server answer and waits for the operation to return.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    private func whileHeld(
        _ server: FakeListServer,
        _ model: PagingModel<ListItem>,
        _ operation: @escaping @MainActor () async -> Void
    ) async throws {
        let running = Task { await operation() }
        try await waitUntil { server.heldCount == 1 }
        try await waitUntil { await model.isLoading }
        server.release()
        await running.value
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func everyChangeIsObservedOnceAndNoneSpuriously() async throws {
        let server = FakeListServer(.init(holdRequests: [1, 2, 3, 4, 5], failRequests: [3, 4]))
        let model = PagingModel(pager: PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing))
        let log = ChangeLog()
        log.trackAll(of: model)

        try await whileHeld(server, model) { await model.loadFirstPageIfNeeded() }
        #expect(model.items.map(\.id) == Array(1...10))
        #expect(log.counts == ["isLoading": 2, "items": 1])

        // A refresh bringing the same items redraws the flags, not the list.
        try await whileHeld(server, model) { await model.refresh() }
        #expect(model.items.map(\.id) == Array(1...10) && !model.isRefreshing)
        #expect(log.counts == ["isLoading": 4, "isRefreshing": 2, "items": 1])

        try await whileHeld(server, model) { await model.loadNextPage() }
        #expect(model.error?.statusCode == 500)
        #expect(log.counts == ["isLoading": 6, "isRefreshing": 2, "items": 1, "error": 1])

        // The same failure again is not a change of the error.
        try await whileHeld(server, model) { await model.retry() }
        #expect(log.counts == ["isLoading": 8, "isRefreshing": 2, "items": 1, "error": 1])

        try await whileHeld(server, model) { await model.retry() }
        #expect(model.items.map(\.id) == Array(1...20) && model.error == nil && model.hasMore)
        #expect(log.counts == ["isLoading": 10, "isRefreshing": 2, "items": 2, "error": 2])

        // Notifications of the pager still queued for the main actor change nothing more.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(log.total == 16)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func theModelStartsFromThePagersStateAndEndsWithTheList() async throws {
        let server = FakeListServer(.init(total: 25))
        let pager = PagedList.cursorInBody.pager(server: .fakeLists, firing: server.firing)
        await pager.loadNextPage()
        let model = PagingModel(pager: pager)
        #expect(model.items.count == 10 && model.hasMore && !model.isLoading)
        await model.loadFirstPageIfNeeded()
        #expect(server.requests.count == 1, "a list that has pages does not load its first page again")
        await model.loadNextPage()
        await model.loadNextPage()
        #expect(model.items.map(\.id) == Array(1...25))
        #expect(!model.hasMore)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func scrollingNearTheEndLoadsTheNextPageOnce() async throws {
        let server = FakeListServer(.init(holdRequests: [2]))
        let model = PagingModel(pager: PagedList.offset.pager(server: .fakeLists, firing: server.firing))
        await model.loadFirstPageIfNeeded()
        let items = model.items
        #expect(!model.loadNextPageIfNeeded(currentItem: items[2]), "far from the end")
        #expect(model.loadNextPageIfNeeded(currentItem: items[7]))
        #expect(model.isLoading, "shown at once, not a main-queue turn later")
        #expect(!model.loadNextPageIfNeeded(currentItem: items[9]), "a page is already loading")
        let waiting = Task { await model.waitForLoad() }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(model.items.count == 10, "still waiting for the held page")
        server.release()
        await waiting.value
        #expect(model.items.count == 20 && !model.isLoading, "shown when waitForLoad returns")
        #expect(server.requests.count == 2)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aRefreshWhileAPageLoadsDiscardsThatPage() async throws {
        let server = FakeListServer(.init(holdRequests: [2]))
        let model = PagingModel(pager: PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing))
        await model.loadFirstPageIfNeeded()
        #expect(model.loadNextPageIfNeeded(currentItem: model.items[9]))
        try await waitUntil { server.heldCount == 1 }
        await model.refresh()
        #expect(model.items.map(\.id) == Array(1...10))
        #expect(!model.isLoading && !model.isRefreshing)
        server.release()  // page 2 answers late: the pager cancelled it and drops it
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(model.items.map(\.id) == Array(1...10))
        #expect(model.pager.state.pageCount == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func nothingChangesAfterTheModelIsReleased() async throws {
        let server = FakeListServer(.init(holdRequests: [2]))
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        var model: PagingModel<ListItem>? = PagingModel(pager: pager)
        await model?.loadFirstPageIfNeeded()
        let log = ChangeLog()
        log.trackAll(of: try #require(model))
        #expect(pager.loadNextPageIfNeeded(currentIndex: pager.items.count - 1))
        try await waitUntil { server.heldCount == 1 }
        let changesBefore = log.total
        weak let released = model
        model = nil
        #expect(released == nil, "neither the pager nor its observation keeps the model alive")
        server.release()
        try await waitUntil { pager.items.count == 20 }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(log.total == changesBefore)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func retryAfterAFailedFirstPageLoadsIt() async throws {
        let server = FakeListServer(.init(failRequests: [1]))
        let model = PagingModel(pager: PagedList.linkHeader.pager(server: .fakeLists, firing: server.firing))
        await model.loadFirstPageIfNeeded()
        #expect(model.items.isEmpty && model.error?.statusCode == 500)
        await model.retry()
        #expect(model.items.count == 10 && model.error == nil)
    }

    /// An item that is not `Equatable`: the model cannot tell new contents under the same ids.
    struct Note: Codable, Sendable, Identifiable {
        let id: Int
        let text: String
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func itemsThatAreNotEquatableAreShownAfterEveryLoad() async throws {
        let edition = Locked(1)
        let firing = FiringFunction.mock { request in
            let notes = (1...3).map { Note(id: $0, text: "edition \(edition.withLock { $0 })") }
            return MockRoutes([.pages("/notes", of: notes, paging: .pageNumber(pageSize: 10))]).response(for: request.request)
        }
        let call = NetCall(server: .fakeLists, endpoint: .get("/notes"), firingFunction: firing)
        let model = PagingModel(pager: Pager(call: call, strategy: .pageNumber(pageSize: 10), decoder: .object(), id: \Note.id))
        await model.loadFirstPageIfNeeded()
        let log = ChangeLog()
        log.trackAll(of: model)
        edition.withLock { $0 = 2 }
        await model.refresh()
        #expect(model.items.map(\.text) == ["edition 2", "edition 2", "edition 2"])
        #expect(log.counts["items"] == 1)
    }
}
