import Testing
import Salvo

// README.md's quick start, verbatim between the markers, compiled and run offline.

private func quickStart() async throws -> String {
    // README quick start: begin
    struct Book: Codable { let id: Int; let title: String }   // your model: plain Codable

    // Configure once, in your API module
    let production = ServerConfig(host: "api.example.com", basePath: "v1")
    func bookCall(_ id: Int) -> NetCall {
        NetCall(server: production, endpoint: .get("/books/\(id)"))
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
    return book.title
}

@Suite struct ReadmeSamples {
    @Test func quickStartRunsOffline() async throws {
        #expect(try await quickStart() == "Dune")
    }
}
