import Testing
import Salvo

// The overview of Sources/Salvo/Salvo.docc/Salvo.md, verbatim between the markers, compiled and
// run offline. `Book` is the one in GettingStartedSamples.swift.

private func landingPage() async throws -> Book {
    // Salvo.md overview: begin
    // Where your API lives: configured once
    let server = ServerConfig(host: "api.example.com", basePath: "v1")
    var call = NetCall(server: server, endpoint: .get("/books/42"))

    // Wherever the answer is needed: a handler…
    call.responder = .decoding(Book.self) { result in
        print(result)
    }

    // …and how it fires: URLSession by default, here a canned answer
    call.firingFunction = .mock(.json(Book(id: 42, title: "Dune")))
    call.fire()

    // …or await it
    let book = try await call.value(as: Book.self)
    // Salvo.md overview: end
    return book
}

@Suite struct DocCSamples {
    @Test func landingPageSampleRunsOffline() async throws {
        #expect(try await landingPage() == Book(id: 42, title: "Dune"))
    }
}
