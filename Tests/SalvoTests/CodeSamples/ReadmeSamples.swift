import Foundation
import Testing
import Salvo

// README.md's quick start and "Configure here, fire there", verbatim between the markers,
// compiled and run offline.

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

// README configure here, fire there: begin
struct Profile: Codable { let name: String }          // plain models: no Sendable needed
struct Message: Codable { let text: String }
struct Problem: Codable { let message: String }       // the API's error body

/// Fires whatever it holds; it knows no endpoint and no model type.
struct RefreshButton {
    let calls: [any Fireable]
    func tap() { for call in calls { call.fire() } }
}

@MainActor final class InboxModel {
    var name = ""
    var messages: [String] = []
    var alert: String?

    /// The API module made the calls; the model sets what happens with their outcomes.
    func refreshButton(profile: TypedCall<Profile, Problem>, inbox: TypedCall<[Message], Problem>) -> RefreshButton {
        var profile = profile
        profile.valueHandler = { self.name = $0.name }
        profile.apiErrorHandler = { self.alert = $0.body?.message ?? $0.localizedDescription }
        var inbox = inbox
        inbox.valueHandler = { self.messages = $0.map(\.text) }
        return RefreshButton(calls: [profile, inbox])
    }
}
// README configure here, fire there: end

@Suite struct ReadmeSamples {
    @MainActor @Test func aRefreshButtonFiresTypedCallsItCannotName() async {
        let api = ServerConfig(host: "api.example.com", firingFunction: .mock(MockRoutes([
            .get("/me", .json(["name": "Ada"])),
            .get("/inbox", .json([["text": "Hello"], ["text": "Welcome"]])),
        ])))
        let model = InboxModel()
        let button = model.refreshButton(profile: TypedCall(NetCall(server: api, endpoint: .get("/me"))),
                                         inbox: TypedCall(NetCall(server: api, endpoint: .get("/inbox"))))
        button.tap()
        for _ in 0..<1_000 where model.messages.isEmpty || model.name.isEmpty { await Task.yield() }
        #expect(model.name == "Ada")
        #expect(model.messages == ["Hello", "Welcome"])
        #expect(model.alert == nil)
    }

    @Test func quickStartRunsOffline() async throws {
        #expect(try await quickStart() == "Dune")
    }
}
