import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

/// A Swift 6 view model, isolated to the main actor, attaching its methods as handlers directly:
/// no `MainActor.assumeIsolated`, no `@unchecked Sendable`, no data-race diagnostics.
@MainActor final class IssueViewModel {
    private(set) var log: [String] = []
    private(set) var isLoading = false

    func startSpinner(_ task: NetworkTask) {
        isLoading = true
        log.append("spinner on")
    }

    func stopSpinner(_ response: URLResponse?) {
        isLoading = false
        log.append("spinner off")
    }

    func show(_ issue: TypedCallTests.Ticket) {
        log.append("issue \(issue.title)")
    }

    func show(_ error: APIError<TypedCallTests.Problem>) {
        log.append("problem \(error.body?.message ?? error.localizedDescription)")
    }

    func received(_ data: Data) {
        log.append("data \(data.count) bytes")
    }

    /// The typed call: a spinner appended to whatever the call already has, then one result.
    func load(_ call: TypedCall<TypedCallTests.Ticket, TypedCallTests.Problem>) {
        var call = call
        call.responder.append(.onMainActor(taskHandler: startSpinner, responseHandler: stopSpinner))
        call.fire { result in
            switch result {
            case .success(let response): self.show(response.value)
            case .failure(let error): self.show(error)
            }
        }
    }

    /// The untyped call with main-actor handlers only.
    func loadRaw(_ call: NetCall) {
        var call = call
        call.responder = .onMainActor(taskHandler: startSpinner, dataHandler: received)
        call.fire()
    }
}

@Suite struct MainActorHandlerTests {
    private let server = ServerConfig(host: "api.test")

    @MainActor private func waitFor(_ model: IssueViewModel, entries: Int) async throws {
        try await waitOnMainActor { model.log.count >= entries }
    }

    @Test @MainActor func aViewModelAttachesItsMethodsAndReceivesEveryEventInOrder() async throws {
        let model = IssueViewModel()
        model.load(TypedCall(NetCall(server: server, endpoint: .get("/issues/1"), firingFunction: .mock(.json(TypedCallTests.Ticket(number: 1, title: "Crash"))))))
        try await waitFor(model, entries: 3)
        #expect(model.log == ["spinner on", "spinner off", "issue Crash"])
        #expect(!model.isLoading)
    }

    @Test @MainActor func anErrorBodyReachesTheViewModel() async throws {
        let model = IssueViewModel()
        model.load(TypedCall(NetCall(server: server, endpoint: .get("/issues/1"), firingFunction: .mock(.json(TypedCallTests.Problem(message: "Not Found"), status: 404)))))
        try await waitFor(model, entries: 3)
        #expect(model.log == ["spinner on", "spinner off", "problem Not Found"])
    }

    @Test @MainActor func mainActorHandlersHopToTheMainActorFromAnotherQueue() async throws {
        let model = IssueViewModel()
        var call = NetCall(server: server, endpoint: .get("/raw"), callbackQueue: .queue(DispatchQueue(label: "worker")), firingFunction: .mock(.text("four")))
        call.responder.dataHandler = { data in
            // A plain handler keeps running on the call's own queue.
            dispatchPrecondition(condition: .notOnQueue(.main))
            _ = data
        }
        model.loadRaw(call)
        try await waitFor(model, entries: 2)
        #expect(model.log == ["spinner on", "data 4 bytes"])
    }

    @Test @MainActor func theUntypedCallDeliversOneResultOnTheMainActor() async throws {
        let results = MainActorBox()
        let call = NetCall(server: server, endpoint: .get("/x"), callbackQueue: .immediate, firingFunction: .mock(.status(503)))
        call.fire { result in
            switch result {
            case .success: results.append("ok")
            case .failure(let error): results.append("failure \(error.statusCode ?? 0)")
            }
        }
        try await waitOnMainActor { !results.values.isEmpty }
        #expect(results.values == ["failure 503"])
    }
}

@MainActor private final class MainActorBox {
    private(set) var values: [String] = []

    func append(_ value: String) {
        values.append(value)
    }
}
