import Foundation
import Testing
import BookAPI
import BookApp
import Salvo
import SalvoObservation
import SalvoTesting

let library = [
    Book(id: 1, title: "Dune", pageCount: 412),
    Book(id: 2, title: "Emma", pageCount: 474),
    Book(id: 3, title: "Ulysses", pageCount: 730),
]

func mockStore() -> BookStore {
    BookStore(api: BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library))))
}

@Suite struct BookAppTests {
    @Test func valueDecodesWithTheServersSnakeCaseDecoder() async throws {
        let store = mockStore()
        await store.load(1)
        await store.load(9)
        #expect(store.shown == [library[0]])
        #expect(store.problems == ["no such book"])
        #expect(try await store.title(of: 2) == "Emma")
    }

    @Test func decodingResponderUpdatesTheModelOnTheMainActor() async {
        let store = mockStore()
        await withCheckedContinuation { done in store.loadWithResponder(3) { done.resume() } }
        await withCheckedContinuation { done in store.loadWithErrorBody(9) { done.resume() } }
        #expect(store.shown == [library[2]])
        #expect(store.problems == ["no such book"])
    }

    @Test func mainActorHandlersAndFireWithResult() async throws {
        let store = mockStore()
        let data = await withCheckedContinuation { done in store.loadRaw(1) { done.resume(returning: $0) } }
        #expect(!data.isEmpty)
        let status = await withCheckedContinuation { done in store.loadStatus(2) { done.resume(returning: $0) } }
        #expect(status == 200)
    }

    @Test func typedCallsDecodeValuesAndErrorBodies() async throws {
        let store = mockStore()
        #expect(try await store.loadTyped(2) == library[1])
        let failure = await withCheckedContinuation { done in store.loadTyped(7) { done.resume(returning: $0) } }
        guard case .failure(let error) = failure else {
            Issue.record("book 7 exists")
            return
        }
        #expect(error.body == APIProblem(message: "no such book"))
        let created = try await store.create(Book(id: 4, title: "Walden", pageCount: 352))
        #expect(created.title == "Walden")
    }

    @Test func streamsDecodeEachValue() async throws {
        let store = mockStore()
        try await store.followImport()
        try await store.followImportEvents()
        #expect(store.progress == [50, 100, 10, 90])
        #expect(try await store.firstEvent() == ImportProgress(percent: 10))
    }

    @Test func downloadWritesTheCover() async throws {
        let store = mockStore()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await store.saveCover(1, to: file) == 1_000)
    }

    @Test func refresherKeepsTheLatestBook() async {
        let refresher = mockStore().refresher(for: 1)
        await refresher.refresh()
        #expect(refresher.value == library[0])
    }

    @Test func pagingModelLoadsPagesOfBooks() async {
        let model = mockStore().pagingModel()
        await model.loadFirstPageIfNeeded()
        await model.loadNextPage()
        #expect(model.items.map(\.id) == [1, 2, 3])
    }

    @Test func spyRecordsTheCallAndMatchesItsJSONBody() async throws {
        let book = Book(id: 5, title: "Middlemarch", pageCount: 880)
        let spy = FiringSpy(routes: MockRoutes([
            MockRoute.post("/books", .json(book, status: 201)).matching(.jsonBody(book)),
        ]))
        let api = BookAPI(server: ServerConfig(host: "books.example"), firingFunction: spy.firingFunction)
        #expect(try await api.create(book).value() == book)
        #expect(spy.calls.count == 1)
        let sent = try #require(spy.lastCall?.request)
        #expect(try JSONDecoder().decode(Book.self, from: try #require(sent.httpBody)) == book)
    }

    @Test func latencyWaitsOnTheTestClock() async throws {
        let clock = TestClock()
        let call = NetCall(server: BookAPI.defaultServer, endpoint: .get("/books/1"),
                           firingFunction: .mock(.json(library[0]).delayed(by: 3), clock: clock.clock))
        // A task on the main actor, where Book decodes (an `async let` would run elsewhere).
        let book = Task { try await call.value(as: Book.self) }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: 3)
        #expect(try await book.value == library[0])
    }
}
