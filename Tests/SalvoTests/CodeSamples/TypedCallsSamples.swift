import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// The code in Docs/TypedCalls.md, kept here so it cannot rot.

// MARK: - The API module: types, decoder and error body bound once

struct Repo: Decodable, Sendable, Equatable {
    let fullName: String
}

struct GitHubIssue: Decodable, Sendable, Equatable {
    let number: Int
    let title: String
}

struct NewIssue: Encodable, Sendable {
    let title: String
}

struct GitHubError: Decodable, Sendable { let message: String }

extension GitHubError: Equatable {}

/// Every GitHub call decodes its error body as `GitHubError`.
typealias GitHubCall<Value: Sendable> = TypedCall<Value, GitHubError>

struct GitHubAPI: Sendable {
    var server: ServerConfig = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return ServerConfig(host: "api.github.com", defaultHeaders: ["Accept": "application/vnd.github+json"], decoder: decoder)
    }()   // its firingFunction fires every call below: `.production` unless a test swaps it

    func repo(_ owner: String, _ name: String) -> GitHubCall<Repo> {
        GitHubCall(NetCall(server: server, endpoint: .get("/repos/\(owner)/\(name)")))
    }

    func issues(in repo: String, state: String = "open") -> GitHubCall<[GitHubIssue]> {
        GitHubCall(NetCall(server: server, endpoint: .get("/repos/\(repo)/issues", query: ["state": state])))
    }

    func createIssue(_ issue: NewIssue, in repo: String) -> GitHubCall<GitHubIssue> {
        GitHubCall(NetCall(server: server, endpoint: .post("/repos/\(repo)/issues", body: .json(issue))))
    }

    /// `204 No Content` on success: nothing to decode.
    func star(_ repo: String) -> GitHubCall<Void> {
        GitHubCall(NetCall(server: server, endpoint: .put("/user/starred/\(repo)")))
    }

    /// The README, or `nil` when the server answers with no body.
    func readme(of repo: String) -> GitHubCall<Repo?> {
        GitHubCall(NetCall(server: server, endpoint: .get("/repos/\(repo)/readme")))
    }
}

// MARK: - The app module: fires, names no type

func showRepo(_ api: GitHubAPI) async {
    do {
        let repo = try await api.repo("swiftlang", "swift").value()
        print(repo.fullName)
    } catch {
        print(error)   // APIError<GitHubError>: the URL, the status and the body, secrets redacted
    }
}

func rateLimit(_ api: GitHubAPI) async throws -> String? {
    let response = try await api.issues(in: "swiftlang/swift").response()
    print(response.value.count, response.statusCode ?? 0)
    let remaining = response.headers["X-RateLimit-Remaining"]
    return remaining
}

/// "Several calls at once, in an app target": a `Task` per call instead of `async let`.
@MainActor struct IssueBoard {
    let api: GitHubAPI

    func loadBoth() async throws -> (open: [GitHubIssue], closed: [GitHubIssue]) {
        let open = Task { try await api.issues(in: "swiftlang/swift").value() }
        let closed = Task { try await api.issues(in: "swiftlang/swift", state: "closed").value() }
        return (try await open.value, try await closed.value)
    }
}

@MainActor final class IssuesViewModel {
    private(set) var issues: [GitHubIssue] = []
    private(set) var alert: String?
    private(set) var isLoading = false

    func startSpinner(_ task: NetworkTask) { isLoading = true }

    func stopSpinner(_ response: URLResponse?) { isLoading = false }

    func load(_ call: GitHubCall<[GitHubIssue]>) {
        var call = call
        call.responder.append(.onMainActor(taskHandler: startSpinner, responseHandler: stopSpinner))
        call.fire { result in
            switch result {
            case .success(let response): self.issues = response.value
            case .failure(let error): self.alert = error.body?.message ?? error.localizedDescription
            }
        }
    }
}

func allIssues(_ api: GitHubAPI) async throws(NetworkError) -> [GitHubIssue] {
    let pager = Pager(call: api.issues(in: "swiftlang/swift"), strategy: .linkHeader()) { issues in Page(items: issues) }
    let all = try await pager.loadAll(maxPages: 20)
    return all
}

@MainActor final class RepoScreen {
    var repo: Repo?
    var issues: [GitHubIssue] = []
    var alert: String?

    /// "Fire without knowing the type": handlers set here, the calls fired elsewhere.
    func refreshCalls(_ api: GitHubAPI) -> [any Fireable] {
        var repo = api.repo("swiftlang", "swift")
        repo.valueHandler = { self.repo = $0 }
        repo.apiErrorHandler = { self.alert = $0.body?.message }
        var issues = api.issues(in: "swiftlang/swift")
        issues.valueHandler = { self.issues = $0 }
        return [repo, issues]
    }
}

func refreshTapped(_ calls: [any Fireable]) {
    for call in calls { call.fire() }   // knows neither endpoint nor type
}

/// A refresher and a pager over typed calls: nothing named again.
@MainActor func controllers(_ api: GitHubAPI) -> RefreshGroup {
    let repo = Refresher(api.repo("swiftlang", "swift"))                                   // Refresher<Repo>
    let issues = Pager(api.issues(in: "swiftlang/swift"), strategy: .linkHeader(), id: \GitHubIssue.number)   // Pager<GitHubIssue>
    return RefreshGroup([repo, issues])
}

func starAndReadme(_ api: GitHubAPI) async throws(APIError<GitHubError>) -> Repo? {
    try await api.star("swiftlang/swift").value()   // Void: any successful body is ignored
    let readme = try await api.readme(of: "swiftlang/swift").value()
    return readme
}

// MARK: - The samples, run under mock firing

@Suite struct TypedCallsSamples {
    private func api(_ routes: MockRoutes) -> GitHubAPI {
        var api = GitHubAPI()
        api.server.firingFunction = .mock(routes)   // every call of the API, in one line
        return api
    }

    @Test func tasksFireSeveralCallsAtOnceFromTheMainActor() async throws {
        let board = IssueBoard(api: api(MockRoutes([
            .get("/repos/**", query: ["state": "open"], .text(#"[{"number":1,"title":"A"}]"#)),
            .get("/repos/**", query: ["state": "closed"], .text(#"[{"number":2,"title":"B"}]"#)),
        ])))
        let both = try await board.loadBoth()
        #expect(both.open == [GitHubIssue(number: 1, title: "A")])
        #expect(both.closed == [GitHubIssue(number: 2, title: "B")])
    }

    @Test func theFiringSideNamesNoType() async throws {
        let api = api(MockRoutes([.get("/repos/:owner/:name", .text(#"{"full_name":"swiftlang/swift"}"#))]))
        #expect(try await api.repo("swiftlang", "swift").value() == Repo(fullName: "swiftlang/swift"))
    }

    @Test func errorsArriveWithTheAPIsErrorBody() async {
        let api = api(MockRoutes([.post("/repos/**", .text(#"{"message":"Validation Failed"}"#, status: 422))]))
        do {
            _ = try await api.createIssue(NewIssue(title: ""), in: "o/r").value()
            Issue.record("expected a 422")
        } catch {
            #expect(error.body == GitHubError(message: "Validation Failed"))
        }
    }

    @Test func anEndpointThatReturnsNothingIsVoidAndOneThatMayIsOptional() async throws {
        let api = api(MockRoutes([
            .put("/user/starred/**", .status(204, headers: ["Content-Type": "text/html"])),
            .get("/repos/**", .status(204)),
        ]))
        #expect(try await starAndReadme(api) == nil)
    }

    @Test func headersComeWithTheValue() async throws {
        let api = api(MockRoutes([.get("/repos/**", .text(#"[{"number":1,"title":"A"}]"#, headers: ["X-RateLimit-Remaining": "4999"]))]))
        let (remaining, printed) = try await SampleOutput.capturing { try await rateLimit(api) }
        #expect(remaining == "4999")
        #expect(printed == ["1 200"])
    }

    @Test @MainActor func aViewModelFiresWithMainActorHandlers() async throws {
        let model = IssuesViewModel()
        model.load(api(MockRoutes([.get("/repos/**", .text(#"[{"number":1,"title":"A"}]"#))])).issues(in: "o/r"))
        try await waitOnMainActor { !model.issues.isEmpty }
        #expect(model.issues == [GitHubIssue(number: 1, title: "A")])
        #expect(!model.isLoading)
    }

    @Test @MainActor func aRefreshButtonFiresTypedCallsWithTheScreensHandlers() async throws {
        let api = api(MockRoutes([
            .get("/repos/swiftlang/swift", .text(#"{"full_name":"swiftlang/swift"}"#)),
            .get("/repos/**", .text(#"[{"number":1,"title":"A"}]"#)),
        ]))
        let screen = RepoScreen()
        refreshTapped(screen.refreshCalls(api))
        for _ in 0..<1_000 where screen.repo == nil || screen.issues.isEmpty { await Task.yield() }
        #expect(screen.repo == Repo(fullName: "swiftlang/swift"))
        #expect(screen.issues.map(\.number) == [1])
        let group = controllers(api)
        await group.refresh()
        #expect(group.error == nil)
    }

    @Test func aPagerLoadsEveryPageOfATypedCall() async throws {
        let api = api(MockRoutes([.get("/repos/**", .text(#"[{"number":1,"title":"A"}]"#))]))
        #expect(try await allIssues(api).map(\.number) == [1])
    }

    @Test func aTestFailsWhenCodeFiresWhereItShouldNot() async {
        var api = GitHubAPI()
        api.server.firingFunction = .unimplemented("the view should read from the cache")
        await withKnownIssue {
            _ = try? await api.repo("o", "r").value()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Unimplemented: ") && $0.rawValue.contains("the view should read from the cache") }
        }
    }
}
