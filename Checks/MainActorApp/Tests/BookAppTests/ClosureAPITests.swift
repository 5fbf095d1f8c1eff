import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import BookAPI
import BookApp
import Salvo
import SalvoTesting

/// Every API that takes a closure or a model type, from the app target, as the guides write it
/// (uses.py lists them from the symbol graphs and fails on one without a use here or in Sources/).
@Suite struct ClosureAPITests {
    @Test func tokenRenewalDecodesThePlainReplyInTheRecommendedSetup() async throws {
        let tokens = TokenStore(accessToken: "expired")
        let routes = MockRoutes([
            MockRoute(.get, "/v1/me") { request in
                request.header("Authorization") == "Bearer fresh" ? .json(["name": "me"]) : .status(401)
            },
            .post("/v1/auth/refresh", .text("{\"access_token\":\"fresh\"}", headers: ["Content-Type": "application/json"])),
        ])
        let lines = LoggedLines()
        let server = BookAPI.server(tokens: tokens, firingFunction: .mock(routes), log: { line in lines.append(line) })
        let me = NetCall(server: server, endpoint: Endpoint.get("/me").requiringAuthentication())
        #expect(try await me.response().data == Data(#"{"name":"me"}"#.utf8))
        #expect(await tokens.renewals == 1)
        #expect(!lines.all.isEmpty)
    }

    @Test func countingFiringFunctionSeesEveryEnd() async throws {
        let counter = FinishedCalls()
        var call = mockStore().api.book(1)
        call.firingFunction = BookAPI.counting(.mock(BookAPI.mockRoutes(library: library)), into: counter)
        _ = try await call.value(as: Book.self)
        #expect(counter.finished == 1)
    }

    @Test func handlersAndResultsOnTheCallbackQueue() async {
        let store = mockStore()
        let first = await withCheckedContinuation { done in store.loadWithHandlers(1) { done.resume(returning: $0) } }
        #expect(first.hasPrefix("data"))
        #expect(await withCheckedContinuation { done in store.loadWithResponderValue(2) { done.resume(returning: $0) } } > 0)
        #expect(await withCheckedContinuation { done in store.loadOnQueue(3) { done.resume(returning: $0) } } == 200)
        #expect(await withCheckedContinuation { done in store.loadTypedOnQueue(9) { done.resume(returning: $0) } } == false)
        #expect(await withCheckedContinuation { done in store.streamCover(1) { done.resume(returning: $0) } } == 1_000)
    }

    @Test func typedResponseAndDownloadProgressUpdateTheModel() async throws {
        let store = mockStore()
        #expect(try await store.loadBoth(1, 3) == [library[0], library[2]])
        #expect(try await store.loadTypedResponse(2) == 200)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await store.saveCoverWithProgress(1, to: file) == 1_000)
        #expect(store.progress.last == 100)
    }

    @Test func pagesOfPlainModelsForAPreview() async throws {
        // Docs/Paging.md's preview recipe: plain models served page by page on the main actor.
        let routes = MockRoutes([.pages("/books", of: library, paging: .pageNumber(pageSize: 2))])
        let call = NetCall(server: ServerConfig(host: "books.example"), endpoint: .get("/books"), firingFunction: .mock(routes))
        let pager = Pager(call: call, strategy: .pageNumber(pageSize: 2), decoder: .object(), id: \Book.id)
        _ = try await pager.loadAll()
        #expect(pager.items.map(\.id) == [1, 2, 3])
        let size = mockStore().sizeRefresher(for: 1)
        await size.refresh()
        #expect((size.value ?? 0) > 0)
        let refresher = mockStore().refresher(for: 2)
        let observations = mockStore().observe(pager, refresher)
        #expect(observations.count == 2)
    }

    @Test func pagersWithStrategiesAndDecodersOfTheAppsOwn() async throws {
        let wrapped = BookAPI(firingFunction: .mock(MockRoutes([
            MockRoute(.get, "/books", onMainActor: { request in
                let page = request.query["page"].flatMap(Int.init) ?? 1
                return .json(BookList(books: page == 1 ? Array(library.prefix(2)) : page == 2 ? [library[2]] : []))
            }),
        ]))).wrappedPager()
        _ = try await wrapped.loadAll()
        #expect(wrapped.items.count == 3)
        let afterID = BookAPI(firingFunction: .mock(MockRoutes([
            MockRoute(.get, "/books", onMainActor: { request in
                let from = request.query["from"].flatMap(Int.init) ?? 0
                return .json(BookList(books: Array(library.dropFirst(from).prefix(2))))
            }),
        ]))).afterIDPager()
        _ = try await afterID.loadAll()
        #expect(afterID.items.count == 3)
        let counts = Pager(call: NetCall(server: ServerConfig(host: "books.example"), endpoint: .get("/count"),
                                         firingFunction: .mock(.text("", headers: ["X-Count": "7"]))),
                           strategy: .pageNumber(pageSize: 1), decoder: BookAPI.headerCountDecoder)
        await counts.loadNextPage()
        #expect(counts.items == [7])
    }

    @Test func sessionsAndMatchersOfTheTestingProduct() async throws {
        // A closure of the session answers wherever the call is answered: it encodes no main-actor
        // model (Docs/Mocking.md: `MockRoute(…, onMainActor:)` does).
        let dune = duneJSON, json = json
        let session = MockSession { request in request.method == .get ? .text(dune, headers: json) : .status(405) }
        let api = BookAPI(firingFunction: .session(session))
        #expect(try await api.book(1).value(as: Book.self) == library[0])
        let matched = MockRoutes([
            MockRoute.post("/books", .status(201)).matching(.jsonBody(containing: ["title": "Walden"])),
            MockRoute.post("/books", .json(library[0], status: 202)).matching(.jsonBody(library[0])),
            MockRoute.post("/imports", .status(202)).matching(MockMatcher("a text body") { request in
                request.header("Content-Type") == "text/plain" ? nil : "not text"
            }),
        ])
        let log = MockRouteLog()
        let creating = BookAPI(server: ServerConfig(host: "books.example"), firingFunction: .mock(matched.logging(into: log)))
        #expect(try await creating.create(library[0]).response().statusCode == 202)
        var problems: [String] = []
        log.verify(strict: false) { problem in problems.append(problem) }
        #expect(problems.isEmpty)
        let upload = try await creating.upload(["a", "b"]).response()
        #expect(upload.statusCode == 202)
    }

    @Test func scriptedAndStubbedSessions() async throws {
        let scripted = ScriptedSession { request, number in
            number == 1 ? .status(503) : .status(200, body: Data("ok".utf8))
        }
        var call = NetCall(server: ServerConfig(host: "books.example"), endpoint: .get("/books/1"), firingFunction: scripted.firingFunction)
        call.actions = [RetryAction(maxAttempts: 2, baseDelay: 0, jitter: 0)]
        #expect(try await call.response().data == Data("ok".utf8))
        let task = ScriptedSessionTask(completion: { data, _, _ in _ = data })
        task.complete(Data(), nil, nil)
        let dune = duneJSON, json = json
        let stub = URLProtocolStub { request in request.request.url?.path == "/books/1" ? .text(dune, headers: json) : .status(404) }
        let stubbed = BookAPI(firingFunction: stub.firingFunction)
        #expect(try await stubbed.book(1).value(as: Book.self) == library[0])
        let received = await withCheckedContinuation { done in
            stub.dataTask(with: URLRequest(url: URL(string: "http://books.example/books/1")!)) { data, _, _ in
                done.resume(returning: data?.count ?? 0)
            }.resume()
        }
        #expect(received > 0)
        let spy = FiringSpy { request in request.method == .delete ? .status(204) : .status(405) }
        let deleting = NetCall(server: ServerConfig(host: "books.example"), endpoint: .delete("/books/1"), firingFunction: spy.firingFunction)
        #expect(try await deleting.response().statusCode == 204)
        let answering = NetCall(server: ServerConfig(host: "books.example"), endpoint: .get("/books/1"),
                                firingFunction: .mock { request in request.method == .get ? .text("ok") : .status(405) })
        #expect(try await answering.response().data == Data("ok".utf8))
        let waiters = Waiters()
        #expect(await waiters.wait(timeout: 5) { !stub.requests.isEmpty })
        let cache = BookAPI.cache(in: FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")) { line in _ = line }
        _ = cache
    }
}

private let duneJSON = #"{"id":1,"title":"Dune","page_count":412}"#
private let json: HTTPHeaders = ["Content-Type": "application/json"]

/// Lines a logging action wrote, from any thread.
nonisolated final class LoggedLines: @unchecked Sendable {
    // @unchecked: `lock` guards `lines`, the only state.
    private let lock = NSLock()
    private var lines: [String] = []

    var all: [String] { lock.withLock { lines } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }
}
