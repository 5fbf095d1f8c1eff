import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoAsyncHTTPClient
import SalvoTesting
import Testing

// The code in Docs/ServerSide.md, kept here so it cannot rot, and fired against the loopback
// server to show that one switch sends every call of a service through AsyncHTTPClient.

// MARK: - One switch: the composition root

/// A book, as the loopback list routes send one.
struct Book: Decodable, Sendable, Identifiable {
    let id: Int
    let name: String
}

/// One page of books.
struct BookPage: Decodable, Sendable {
    let items: [Book]
    let totalPages: Int

    enum CodingKeys: String, CodingKey {
        case items
        case totalPages = "total_pages"
    }
}

/// The error body of the service.
struct ServiceProblem: Decodable, Sendable {
    let status: Int
    let message: String
}

/// Where a service's calls go and how they fire: the one value a composition root swaps
/// (the demo's `CatalogEnvironment` has the same shape).
struct ServiceEnvironment: Sendable {
    var server: ServerConfig
    var firing: FiringFunction

    /// Production on a server: every call through AsyncHTTPClient.
    static func live(baseURL: String, token: @escaping @Sendable () async throws -> String?) throws(NetworkError) -> ServiceEnvironment {
        var server = try ServerConfig(baseURL: baseURL)
        server.actions = [AuthTokenAction(for: server, token: token)]
        return ServiceEnvironment(server: server, firing: .asyncHTTPClient())
    }

    /// Tests and previews: the same calls answered from recorded fixtures, offline.
    static func offline(fixtures: URL) -> ServiceEnvironment {
        ServiceEnvironment(server: ServerConfig(host: "books.offline"), firing: .replaying(from: fixtures, options: FixtureOptions(matchesOrigin: false)))
    }

    /// This environment, also recording every exchange it makes to `folder`.
    func recording(to folder: URL) -> ServiceEnvironment {
        ServiceEnvironment(server: server, firing: .recording(to: folder, options: FixtureOptions(matchesOrigin: false), through: AsyncHTTPClientSession.shared))
    }
}

/// The service's calls, configured once; whoever fires them knows no transport.
struct BooksAPI: Sendable {
    var environment: ServiceEnvironment

    func book(id: Int) -> TypedCall<Book, ServiceProblem> {
        TypedCall(NetCall(server: environment.server, endpoint: .get("/books/\(id)"), firingFunction: environment.firing))
    }

    func books(listKey: String) -> Pager<Book> {
        let call = TypedCall<BookPage, ServiceProblem>(NetCall(
            server: environment.server,
            endpoint: .get("/list/\(listKey)/pages", query: ["total": "25"]),
            firingFunction: environment.firing
        ))
        return Pager(call: call, strategy: .pageNumber(pageSize: 10), id: \Book.id) { page in
            Page(items: page.items, totalPages: page.totalPages)
        }
    }
}

// MARK: - Lifecycle

/// A service that owns its client: made at start-up, shut down when the service stops.
struct ReportService {
    let session = AsyncHTTPClientSession()

    func run(_ reports: ServerConfig) async throws -> Data {
        let call = NetCall(server: reports, endpoint: .get("/echo/report"), firingFunction: .asyncHTTPClient(session))
        return try await call.response().data
    }

    func stop() async throws {
        try await session.shutdown()
    }
}

/// A client you configure and own yourself (here with another pool size), lent to a session.
func borrowedClientSession() -> (HTTPClient, AsyncHTTPClientSession) {
    var configuration = AsyncHTTPClientSession.clientConfiguration
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
    let client = HTTPClient(configuration: configuration)
    let session = AsyncHTTPClientSession(client: client)
    return (client, session)
}

/// A session that keeps cookies, for one user's calls (a server calling APIs for many users
/// gives each user a storage of its own, or none).
func cookieKeepingSession() -> AsyncHTTPClientSession {
    AsyncHTTPClientSession(cookieStorage: URLSessionConfiguration.ephemeral.httpCookieStorage)
}

/// The examples in `AsyncHTTPClientSession`'s, `clientConfiguration`'s and
/// `FiringFunction.asyncHTTPClient`'s documentation.
func documentationExamples(api: ServerConfig) async throws -> (Echo, ServiceEnvironment, AsyncHTTPClientSession) {
    // Every call of a service, through the process-wide client:
    let firing = FiringFunction.asyncHTTPClient()

    // A client of your own, shut down when the service stops:
    let session = AsyncHTTPClientSession()
    let user = try await NetCall(server: api, endpoint: .get("/users/1"), firingFunction: .asyncHTTPClient(session)).value(as: Echo.self)
    try await session.shutdown()

    var configuration = AsyncHTTPClientSession.clientConfiguration
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
    let pooled = AsyncHTTPClientSession(configuration: configuration)

    let environment = ServiceEnvironment(server: api, firing: .asyncHTTPClient())
    _ = firing
    return (user, environment, pooled)
}

@Suite struct ServerSideSamples {
    @Test func theDocumentationExamplesRun() async throws {
        let (user, environment, pooled) = try await documentationExamples(api: try await ServerConfig.loopback(basePath: "echo"))
        #expect(user.path == "/echo/users/1")
        #expect(try await NetCall(server: environment.server, endpoint: .get("/x"), firingFunction: environment.firing).value(as: Echo.self).path == "/echo/x")
        try await pooled.shutdown()
    }

    private func loopbackEnvironment(token: String = "t-1") async throws -> ServiceEnvironment {
        let base = try await LoopbackServer.baseURL().absoluteString
        return try ServiceEnvironment.live(baseURL: base) { token }
    }

    @Test func oneSwitchSendsEveryCallOfTheServiceThroughAsyncHTTPClient() async throws {
        let environment = try await loopbackEnvironment()
        // A call built anywhere from the environment goes out through AsyncHTTPClient: the
        // transport's default User-Agent arrives, not URLSession's.
        let echo = try await NetCall(server: environment.server, endpoint: .get("/echo/which"), firingFunction: environment.firing).value(as: Echo.self)
        #expect(echo.header("User-Agent") == "Salvo (AsyncHTTPClient)")
    }

    @Test func aPagerWalksTheServicesListThroughTheSwitch() async throws {
        let api = BooksAPI(environment: try await loopbackEnvironment())
        let key = uniqueKey()
        let books = try await withTimeout { try await api.books(listKey: key).loadAll(maxPages: 5) }
        #expect(books.map(\.id) == Array(1...25))
    }

    @Test func aRecordingOverAsyncHTTPClientReplaysOffline() async throws {
        let folder = try TemporaryFolder()
        let key = uniqueKey()
        let live = BooksAPI(environment: try await loopbackEnvironment().recording(to: folder.url))
        let recorded = try await withTimeout { try await live.books(listKey: key).loadAll(maxPages: 5) }
        let served = try await LoopbackServer.count(path: "/list/\(key)/pages")
        let offline = BooksAPI(environment: .offline(fixtures: folder.url))
        let replayed = try await offline.books(listKey: key).loadAll(maxPages: 5)
        #expect(replayed.map(\.id) == recorded.map(\.id))
        #expect(try await LoopbackServer.count(path: "/list/\(key)/pages") == served, "replay must not reach the server")
    }

    @Test func aServiceShutsItsOwnClientDownWhenItStops() async throws {
        let service = ReportService()
        let reports = try await ServerConfig.loopback()
        #expect(try await service.run(reports).isEmpty == false)
        try await service.stop()
        await #expect(throws: NetworkError.self) { try await service.run(reports) }
    }

    @Test func aBorrowedClientStaysTheCallersToShutDown() async throws {
        let (client, session) = borrowedClientSession()
        let echo = try await NetCall(server: try await .loopback(), endpoint: .get("/echo/borrowed"), firingFunction: .asyncHTTPClient(session)).value(as: Echo.self)
        #expect(echo.path == "/echo/borrowed")
        try await client.shutdown()
    }

    @Test func aCookieKeepingSessionSendsBackWhatTheServerSet() async throws {
        let session = cookieKeepingSession()
        let server = try await ServerConfig.loopback()
        _ = try await NetCall(server: server, endpoint: .get("/cookie"), firingFunction: .asyncHTTPClient(session)).response()
        let echo = try await NetCall(server: server, endpoint: .get("/echo/cookies"), firingFunction: .asyncHTTPClient(session)).value(as: Echo.self)
        #expect(echo.header("Cookie") == "session=secret-cookie-value")
        try await session.shutdown()
    }
}
