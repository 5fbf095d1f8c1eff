import Testing
import Salvo

// README.md's quick start, verbatim between the markers, compiled and run offline.

// `Book` is the one in GettingStartedSamples.swift.

private let production = ServerConfig(host: "api.example.com", basePath: "v1")

private func quickStart() async throws -> Book {
    // README quick start: begin
    // Configure once, in your API module
    func bookCall(_ id: Int, on server: ServerConfig = production) -> NetCall {
        NetCall(server: server, endpoint: .get("/books/\(id)"))
    }

    // Fire anywhere: callbacks…
    var call = bookCall(42)
    call.responder = .decoding(Book.self) { result in
        print(result)
    }
    call.firingFunction = .mock(.json(Book(id: 42, title: "Dune")))   // offline: swap how it fires
    call.fire()

    // …or async/await
    let book = try await call.value(as: Book.self)
    // README quick start: end
    return book
}

@Suite struct ReadmeSamples {
    @Test func quickStartRunsOffline() async throws {
        #expect(try await quickStart() == Book(id: 42, title: "Dune"))
    }
}
