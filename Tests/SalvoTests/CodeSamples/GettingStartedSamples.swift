import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// The code in README.md and Docs/GettingStarted.md, kept here so it cannot rot.

// MARK: - Configure (in your API module)

struct Book: Codable, Sendable, Equatable {
    let id: Int
    let title: String
}

struct APIProblem: Decodable, Sendable { let message: String }

extension APIProblem: Equatable {}

enum Servers {
    static let production = ServerConfig(host: "api.example.com", basePath: "v1",
                                         defaultHeaders: ["Accept": "application/json"])
    static let staging = ServerConfig(host: "staging.example.com", basePath: "v1")
    static let local = ServerConfig(scheme: "http", host: "localhost", port: 3000, basePath: "v1")
}

enum BookCalls {
    static let server = Servers.production   // change this one value to point every call elsewhere

    static func book(_ id: Int) -> NetCall {
        NetCall(server: server, endpoint: .get("/books/\(id)"))
    }

    static func search(_ text: String, page: Int) -> NetCall {
        NetCall(server: server, endpoint: .get("/books", query: ["q": text, "page": "\(page)"]))
    }

    static func add(_ book: Book) -> NetCall {
        NetCall(server: server, endpoint: .post("/books", body: .json(book)))
    }

    static func remove(_ id: Int) -> NetCall {
        NetCall(server: server, endpoint: .delete("/books/\(id)"))
    }

    static func stats() -> NetCall {
        // A v2 endpoint next to v1 ones.
        NetCall(server: server, endpoint: Endpoint.get("/stats").onBasePath("v2"))
    }
}

// MARK: - Fire (anywhere else)

@MainActor final class BookScreen {
    private(set) var shown: [String] = []

    func startSpinner(_ task: NetworkTask) { shown.append("spinner on") }

    func load(_ call: NetCall) {
        var call = call
        // Main-actor handlers: a view model attaches its own methods, no MainActor.assumeIsolated.
        call.responder.append(.onMainActor(taskHandler: startSpinner))
        call.fire { result in   // one Result per firing, on the main actor
            switch result {
            case .success(let response): self.shown.append("\(response.data.count) bytes")
            case .failure(let error): self.shown.append(error.userMessage)   // the log gets "\(error)"
            }
        }
    }
}

func decodingResponders(_ call: NetCall, show: @escaping @Sendable (Book) -> Void, alert: @escaping @Sendable (NetworkError) -> Void) {
    var call = call
    call.responder = .decoding(Book.self) { result in
        switch result {
        case .success(let book): show(book)
        case .failure(let error): alert(error)
        }
    }
    call.fire()
    TypedCall<Book, APIProblem>(call).fire { result in
        if case .failure(let error) = result { _ = error.body?.message }
    }
}

func handlersFromDifferentPlaces(_ call: NetCall) -> NetCall {
    var call = call
    let parsing = NetworkResponder(dataHandler: { data in /* a model parses */ })
    let spinner = NetworkResponder(taskHandler: { _ in /* start */ }, responseHandler: { _ in /* stop */ })
    let alerts = NetworkResponder(errorHandler: { error in /* show */ },
                                  serverErrorHandler: { error in /* show status */ })
    call.responder = parsing
    call.responder.append(spinner)
    call.responder.append(alerts)
    return call
}

func asyncUsage() async {
    do {
        let book = try await BookCalls.book(42).value(as: Book.self)
        print(book.title)
    } catch .serverStatus(let failure) where failure.statusCode == 404 {
        // not found
    } catch {
        print(error)   // the developer's sentence; error.localizedDescription is the one for the user
    }
}

func emptyBodies() async throws(NetworkError) {
    _ = try await BookCalls.remove(42).response()                     // returns nothing: no decoding
    let cached = try await BookCalls.book(42).value(as: Book?.self)   // nil for a 204 or an empty 200
    print(cached?.title ?? "no book")
}

func typedErrors() async -> String? {
    var alert: String?
    do {
        _ = try await TypedCall<Book, APIProblem>(BookCalls.add(Book(id: 1, title: "Dune"))).value()
    } catch {
        print("adding a book failed: \(error)")                  // for you: URL, status, body (secrets redacted)
        alert = error.body?.message ?? error.localizedDescription   // for the user: one short sentence
    }
    return alert
}

func swappingHowCallsFire() -> NetCall {
    var server = Servers.production
    server.firingFunction = .mock(.json(Book(id: 42, title: "Dune")))   // every call to `server`, offline
    var call = NetCall(server: server, endpoint: .get("/books/42"))
    call.firingFunction = .production                                    // …except this one
    return call
}

/// What the custom firing function sample counts into.
final class FinishedCalls: Sendable {
    private let ends = Locked<[(path: String, failed: Bool)]>([])

    func record(_ path: String, failed: Bool) { ends.withLock { $0.append((path, failed)) } }

    var paths: [String] { ends.withLock { $0.map(\.path) } }
    var failures: Int { ends.withLock { $0.filter(\.failed).count } }
}

func counting(_ base: FiringFunction, into counter: FinishedCalls) -> FiringFunction {
    FiringFunction { call, channel in
        base(call, channel.onFinish { error in counter.record("\(call.endpoint.path)", failed: error != nil) })
    }
}

// MARK: - The samples, run against a fake session

@Suite struct GettingStartedSamples {
    private func offline(_ call: NetCall, status: Int = 200, body: String) -> NetCall {
        var call = call
        call.firingFunction = ScriptedSession(.status(status, body: Data(body.utf8))).firingFunction
        return call
    }

    @Test @MainActor func configuredCallFiresFromAnotherPlace() async throws {
        let screen = BookScreen()
        screen.load(offline(BookCalls.book(42), body: #"{"id":42,"title":"Dune"}"#))
        try await waitOnMainActor { screen.shown.count >= 2 }
        #expect(screen.shown == ["spinner on", "24 bytes"])
    }

    @Test func switchingServerIsOneValue() throws {
        #expect(try BookCalls.book(1).urlRequest().url?.absoluteString == "https://api.example.com/v1/books/1")
        #expect(try BookCalls.stats().urlRequest().url?.absoluteString == "https://api.example.com/v2/stats")
        var local = BookCalls.book(1)
        local.server = Servers.local
        #expect(try local.urlRequest().url?.absoluteString == "http://localhost:3000/v1/books/1")
    }

    @Test func anEmptySuccessIsNothingOrNil() async throws {
        var remove = offline(BookCalls.remove(42), status: 204, body: "")
        remove.actions = [ValidationAction.json]
        #expect(try await remove.response().statusCode == 204)
        #expect(try await offline(BookCalls.book(42), status: 204, body: "").value(as: Book?.self) == nil)
        #expect(try await offline(BookCalls.book(42), body: #"{"id":42,"title":"Dune"}"#).value(as: Book?.self)?.title == "Dune")
    }

    @Test func aServersFiringFunctionFiresItsCallsUnlessACallSetsItsOwn() async throws {
        var call = swappingHowCallsFire()
        call.firingFunction = call.server.firingFunction   // back to the server's, to stay offline
        #expect(try await call.value(as: Book.self) == Book(id: 42, title: "Dune"))
        var other = NetCall(server: call.server, endpoint: .get("/books/7"))
        other.callbackQueue = .immediate
        #expect(try await other.value(as: Book.self).title == "Dune")
    }

    @Test func aCustomFiringFunctionHearsEachCallEnd() async throws {
        let counter = FinishedCalls()
        var call = BookCalls.book(42)
        call.firingFunction = counting(.mock(.json(Book(id: 42, title: "Dune"))), into: counter)
        _ = try await call.value(as: Book.self)
        call.firingFunction = counting(.mock(.status(404)), into: counter)
        await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(counter.paths == ["/books/42", "/books/42"])
        #expect(counter.failures == 1)
    }

    @Test func typedErrorBodyArrives() async {
        do {
            _ = try await TypedCall<Book, APIProblem>(offline(BookCalls.add(Book(id: 1, title: "Dune")), status: 409, body: #"{"message":"exists"}"#))
                .value()
            Issue.record("expected failure")
        } catch {
            #expect(error.body == APIProblem(message: "exists"))
        }
    }
}
