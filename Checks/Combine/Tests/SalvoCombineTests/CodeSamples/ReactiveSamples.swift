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

// The Combine code in Docs/Reactive.md, kept here so it cannot rot: compiled against Combine on
// Apple platforms and OpenCombine on Linux, and run by the test at the end. (Apple code imports
// SalvoCombine; this package builds the same sources as SalvoOpenCombine.)

enum ReactiveSamples {
    struct Book: Codable, Sendable, Identifiable, Equatable {
        let id: Int
        let title: String
    }

    struct Problem: Codable, Sendable, Equatable {
        let message: String
    }

    typealias LibraryCall<Value: Decodable & Sendable> = TypedCall<Value, Problem>

    /// A screen model fed by publishers: call publishers deliver on the call's queue (main by
    /// default) and state publishers on the main actor, so it needs no `receive(on:)`.
    @MainActor final class BookScreen {
        private(set) var title = ""
        private(set) var isBusy = false
        private var cancellables = Set<AnyCancellable>()

        /// One call: its value or its typed error body.
        func open(_ call: LibraryCall<Book>) {
            call.valuePublisher()
                .sink(receiveCompletion: { [weak self] completion in
                    if case .failure(let error) = completion {
                        self?.title = error.body?.message ?? error.localizedDescription
                    }
                }, receiveValue: { [weak self] book in
                    self?.title = book.title
                })
                .store(in: &cancellables)
        }

        /// A spinner for every call fired through an activity-reporting firing function.
        func showActivity(of activity: CallActivity) {
            activity.inProgressPublisher()
                .sink { [weak self] isBusy in self?.isBusy = isBusy }
                .store(in: &cancellables)
        }

        /// Stops everything the screen started: cancels requests still in flight.
        func close() {
            cancellables.removeAll()
        }
    }

    /// An untyped call: the response, or the body decoded.
    static func untyped(_ call: NetCall) -> AnyPublisher<String, Never> {
        call.valuePublisher(as: Book.self)
            .map(\.title)
            .replaceError(with: "unknown")
            .eraseToAnyPublisher()
    }

    /// A pager's states as a list screen reads them.
    static func rows(of pager: Pager<Book>) -> AnyPublisher<[String], Never> {
        pager.statePublisher()
            .filter { !$0.isLoading }
            .map { state in state.items.map(\.title) }
            .eraseToAnyPublisher()
    }

    /// Every call of an app counted by one activity, at the composition root.
    static func reportingEverything(_ firing: FiringFunction, to activity: CallActivity) -> FiringFunction {
        firing.reportingActivity(to: activity)
    }
}

@Suite struct ReactiveSamplesTests {
    private let server = ServerConfig(host: "library.test")

    @MainActor @Test func samplesRunAgainstMockFiring() async throws {
        let dune = ReactiveSamples.Book(id: 1, title: "Dune")
        let activity = CallActivity()
        let firing = ReactiveSamples.reportingEverything(.mock(.json(dune)), to: activity)
        let screen = ReactiveSamples.BookScreen()
        screen.showActivity(of: activity)
        screen.open(ReactiveSamples.LibraryCall<ReactiveSamples.Book>(NetCall(server: server, endpoint: .get("/books/1"), firingFunction: firing)))
        try await waitUntilOnMainActor { screen.title == "Dune" }

        let missing = ReactiveSamples.LibraryCall<ReactiveSamples.Book>(NetCall(
            server: server, endpoint: .get("/books/2"),
            firingFunction: .mock(.json(ReactiveSamples.Problem(message: "No such book"), status: 404))
        ))
        screen.open(missing)
        try await waitUntilOnMainActor { screen.title == "No such book" }
        try await waitUntilOnMainActor { !screen.isBusy }
        screen.close()

        let title = RecordingSubscriber<String, Never>()
        ReactiveSamples.untyped(NetCall(server: server, endpoint: .get("/books/1"), firingFunction: .mock(.json(dune)))).subscribe(title)
        #expect(try await title.waitForCompletion() == ["Dune"])

        let books = (1...3).map { ReactiveSamples.Book(id: $0, title: "Book \($0)") }
        let routes = MockRoutes([.pages("/books", of: books, paging: .pageNumber(pageSize: 2))])
        let pager = Pager(call: NetCall(server: server, endpoint: .get("/books"), firingFunction: .mock(routes)),
                          strategy: .pageNumber(pageSize: 2), decoder: .object(), id: \ReactiveSamples.Book.id)
        let rows = RecordingSubscriber<[String], Never>()
        ReactiveSamples.rows(of: pager).subscribe(rows)
        _ = try await pager.loadAll()
        try await waitUntil { rows.values.last == ["Book 1", "Book 2", "Book 3"] }
    }
}
