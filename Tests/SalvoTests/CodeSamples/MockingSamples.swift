import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// The code in Docs/Mocking.md and Docs/Testing.md, kept here so it cannot rot.

enum MockingSamples {
    struct User: Codable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    struct APIProblem: Codable, Sendable, Equatable {
        let message: String
    }

    // MARK: - One firing function for the whole app

    /// The API module builds every call from this value; the composition root picks the firing.
    struct UserAPI: Sendable {
        var server = ServerConfig(host: "api.example.com", basePath: "v1")

        /// Every call below fires through `firing`, its server's firing function.
        init(firing: FiringFunction = .production) {
            server.firingFunction = firing
        }

        func user(_ id: Int) -> NetCall {
            NetCall(server: server, endpoint: .get("/users/\(id)"))
        }

        func users(page: Int) -> NetCall {
            NetCall(server: server, endpoint: .get("/users", query: ["page": "\(page)"]))
        }

        func create(_ user: User) -> NetCall {
            NetCall(server: server, endpoint: .post("/users", body: .json(user)))
        }
    }

    enum OfflineRoutes {
        static let all = MockRoutes(under: "/v1", [
            .get("/users", query: ["page": "1"], .json([User(id: 1, name: "Ada"), User(id: 2, name: "Linus")])),
            .get("/users", .json([User]())),
            MockRoute(.get, "/users/:id") { request in
                guard let id = Int(request.parameters["id"] ?? "") else { return .status(400) }
                return .json(User(id: id, name: "User \(id)"))
            },
            MockRoute(.post, "/users") { request in
                let user = try? request.decodeBody(as: User.self)
                return user.map { .json($0, status: 201) } ?? .json(APIProblem(message: "bad user"), status: 422)
            },
            .get("/users/13", .json(APIProblem(message: "unlucky"), status: 404)),
        ])
    }

    /// The composition root: the only place that knows whether the app is offline.
    static func makeAPI(arguments: [String]) -> UserAPI {
        if arguments.contains("--offline") {
            return UserAPI(firing: .mock(OfflineRoutes.all, conditions: NetworkConditions(latency: 0.05...0.3, seed: 7)))
        }
        return UserAPI()
    }

    // MARK: - A multipart form, checked by its parts

    static let uploadRoutes = makeUploadRoutes()

    static func makeUploadRoutes() -> MockRoutes {
        let routes = MockRoutes([
        MockRoute.post("/photos", .status(201)).matching(
            .multipartFields(["album": "Holiday", "caption": "*"]),
            .multipartPart(named: "photo", fileName: "bay.jpg", contentType: "image/jpeg")
        ),
        MockRoute(.post, "/avatars") { request in
            let image = request.parts?.first { $0.name == "image" }
            return .json(["bytes": image?.body.count ?? 0])
        },
        ])
        return routes
    }
}

@Suite struct MockingSamplesTests {
    typealias User = MockingSamples.User
    typealias UserAPI = MockingSamples.UserAPI
    typealias OfflineRoutes = MockingSamples.OfflineRoutes

    @Test func formsAreCheckedByTheirParts() async throws {
        var upload = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .post("/photos", body: .multipart([
            .field("album", "Holiday"), .field("caption", "Bay"),
            .data(Data("jpeg".utf8), name: "photo", fileName: "bay.jpg", contentType: "image/jpeg"),
        ])), callbackQueue: .immediate, firingFunction: .mock(MockingSamples.uploadRoutes))
        #expect(try await upload.response().statusCode == 201)
        upload.endpoint = .post("/avatars", body: .multipart([.data(Data(count: 5), name: "image", fileName: "me.png", contentType: "image/png")]))
        #expect(try await upload.value(as: [String: Int].self) == ["bytes": 5])
    }

    @Test func singleCallMocks() async throws {
        var call = MockingSamples.UserAPI().user(1)
        call.callbackQueue = .immediate

        call.firingFunction = .mock(.json(User(id: 1, name: "Ada")))
        let user = try await call.value(as: User.self)

        call.firingFunction = .mock(.status(500))
        call.firingFunction = .mock(.failure(.notConnectedToInternet))
        call.firingFunction = .mock(.text("slow").delayed(by: 0.1))

        #expect(user.name == "Ada")
        #expect(try await call.response().data == Data("slow".utf8))
    }

    @Test func offlineApp() async throws {
        let api = MockingSamples.makeAPI(arguments: ["App", "--offline"])
        let seven = try await api.user(7).value(as: User.self)
        let firstPage = try await api.users(page: 1).value(as: [User].self)
        do {
            _ = try await TypedCall<User, MockingSamples.APIProblem>(api.user(13)).value()
            Issue.record("expected a 404")
        } catch {
            #expect(error.body?.message == "unlucky")
        }
        #expect(seven == User(id: 7, name: "User 7"))
        #expect(firstPage.count == 2)
        #expect(try await api.create(User(id: 3, name: "Grace")).response().statusCode == 201)
    }

    @Test func flakyNetworkRepeatsExactly() async {
        func run() async -> [Bool] {
            let flaky = NetworkConditions(failureRate: 0.3, failure: .timedOut, seed: 2024)
            let api = UserAPI(firing: .mock(OfflineRoutes.all, conditions: flaky))
            var succeeded: [Bool] = []
            for id in 1...10 {
                succeeded.append((try? await api.user(id).value(as: User.self)) != nil)
            }
            return succeeded
        }
        let first = await run()
        #expect(await run() == first)   // same seed, same requests: same failures
    }

    @Test func recordAndReplay() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-sample-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        // In an app: `.recording(to: fixtures)` sends through URLSession.shared. Here a mock session
        // plays the server so the sample runs offline.
        let server = MockSession { _ in .json(User(id: 5, name: "Recorded")) }
        let options = FixtureOptions(redaction: .default.adding(headers: ["X-Api-Key"], queryKeys: ["api_key"]))

        var call = MockingSamples.UserAPI().user(5)
        call.callbackQueue = .immediate
        call.firingFunction = .recording(to: fixtures, options: options)      // real network, writes fixtures
        call.firingFunction = .recording(to: fixtures, options: options, through: server)
        let live = try await call.value(as: User.self)

        call.firingFunction = .replaying(from: fixtures, options: options)
        let replayed = try await call.value(as: User.self)
        #expect(replayed == live)
    }

    // MARK: - Docs/Testing.md

    @Test func spyOnTheCallsAModelFires() async throws {
        let spy = FiringSpy(answering: .json(User(id: 42, name: "Ada")))
        let api = UserAPI(firing: spy.firingFunction)

        let user = try await api.user(42).value(as: User.self)

        #expect(user.name == "Ada")
        #expect(spy.calls.map(\.endpoint) == [.get("/users/42")])
        #expect(spy.lastCall?.url?.absoluteString == "https://api.example.com/v1/users/42")
    }

    @Test func handlerSequence() async {
        var call = MockingSamples.UserAPI().user(1)
        call.firingFunction = .mock(.status(500, body: Data("oops".utf8)))
        let events = await call.fireAndRecord()
        #expect(events == [.task, .response, .httpResponse(status: 500), .errorData(Data("oops".utf8)), .serverError(status: 500)])
    }

    @Test func aSessionThatAnswersFromAScript() async {
        let session = ScriptedSession(.hang)
        let api = UserAPI(firing: session.firingFunction)
        let log = ResponderLog()
        var call = api.user(1)
        call.responder = log.responder
        call.callbackQueue = .immediate

        let task = call.fire()   // the session holds the request…
        task.cancel()            // …until the call is cancelled

        #expect(await log.waitForOutcome() == [.task, .noResponse, .error(.cancelled), .errorData(nil)])
        #expect(session.requests.map(\.url?.path) == ["/v1/users/1"])
    }

    @Test func throughARealURLSession() async throws {
        let stub = URLProtocolStub(routes: OfflineRoutes.all)
        let api = UserAPI(firing: stub.firingFunction)

        let user = try await api.user(9).value(as: User.self)

        #expect(user.id == 9)
        #expect(stub.requests.first?.url?.path == "/v1/users/9")
    }
}

/// Docs/Mocking.md: route closures that encode or decode models, from the main actor.
@MainActor enum PreviewRoutes {
    typealias User = MockingSamples.User

    static func users() -> MockRoutes {
        MockRoutes([
            MockRoute(.get, "/users/:id", onMainActor: { request in
                .json(User(id: Int(request.parameters["id"] ?? "") ?? 0, name: "Ada"))
            }),
            MockRoute(.post, "/users", onMainActor: { request in
                let user = try? request.decodeBody(as: User.self)
                return user.map { .json($0, status: 201) } ?? .status(422)
            }),
        ])
    }
}
