import Foundation
import Salvo

/// What the token endpoint answers: a plain model, decoded inside the renewal (Docs/Actions.md).
public struct TokenReply: Codable {
    public var accessToken: String

    public init(accessToken: String) {
        self.accessToken = accessToken
    }
}

/// Where the app keeps its token: an actor, as Docs/Actions.md writes it.
public actor TokenStore {
    public private(set) var accessToken: String?
    public private(set) var renewals = 0

    public init(accessToken: String? = nil) {
        self.accessToken = accessToken
    }

    public func store(_ token: String) {
        accessToken = token
        renewals += 1
    }
}

/// How many calls ended, and how many failed: what a firing function of the app's own counts.
/// `nonisolated`, as an app writes a lock-guarded type its firing function reaches from any thread.
public nonisolated final class FinishedCalls: @unchecked Sendable {
    // @unchecked: `lock` guards `counts`, the only state.
    private let lock = NSLock()
    private var counts = (finished: 0, failed: 0)

    public init() {}

    public var finished: Int { lock.withLock { counts.finished } }

    public func record(_ path: String, failed: Bool) {
        lock.withLock {
            counts.finished += 1
            if failed { counts.failed += 1 }
        }
    }
}

extension BookAPI {
    /// Docs/Actions.md's recommended setup, unchanged: the renewal decodes the app's plain model.
    public static func server(tokens: TokenStore, firingFunction: FiringFunction, log: @escaping @Sendable (String) -> Void) -> ServerConfig {
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase       // {"access_token": …}
        var api = ServerConfig(host: "api.example.com", basePath: "v1", decoder: snakeCase)
        api.firingFunction = firingFunction
        let renewalCall = NetCall(server: api, endpoint: .post("/auth/refresh"))
        let renewal = TokenRenewalAction {
            let reply = try await renewalCall.value(as: TokenReply.self)   // decoded with the server's decoder
            await tokens.store(reply.accessToken)
        }
        api.actions = [
            RetryAction(maxAttempts: 4),
            renewal,
            AuthTokenAction(for: api) { await tokens.accessToken },
            ValidationAction.json,
            LoggingAction(includesHeaders: true, sink: log),
        ]
        return api
    }

    /// Docs/GettingStarted.md's firing function of the app's own, counting finished calls.
    public static func counting(_ base: FiringFunction, into counter: FinishedCalls) -> FiringFunction {
        FiringFunction { call, channel in
            base(call, channel.onFinish { error in counter.record("\(call.endpoint.path)", failed: error != nil) })
        }
    }

    /// A disk cache that logs what it drops (Docs/Caching.md).
    public static func cache(in folder: URL, log: @escaping @Sendable (String) -> Void) -> CacheStore {
        .disk(in: folder, log: log)
    }

    /// A pager over a typed call whose body wraps the items, with its own strategy and decoder.
    public func wrappedPager() -> Pager<Book> {
        let call = TypedCall<BookList, APIProblem>(books())
        return Pager(call: call, strategy: .pageNumber(pageSize: 2), id: \Book.id) { list in
            Page(items: list.books, hasMore: !list.books.isEmpty)
        }
    }

    /// A strategy of the app's own: `?from=<last id>` (Docs/Paging.md, "Your own strategy").
    public func afterIDPager() -> Pager<Book> {
        let strategy = PagingStrategy(firstPage: { call in call }, nextPage: { page in
            guard page.hasMore != false, page.itemCount > 0 else { return nil }
            var next = page.baseCall
            next.endpoint = next.endpoint.adding(query: ["from": String(page.itemsBefore + page.itemCount)])
            return next
        })
        return Pager(call: books(), strategy: strategy, decoder: .object(itemsKey: "books"), id: \Book.id)
    }

    /// A page decoder of the app's own that reads a header.
    public static var headerCountDecoder: PageDecoder<Int> {
        PageDecoder { response in
            Page(items: [Int(response.headers["X-Count"] ?? "") ?? 0])
        }
    }

    /// An upload whose body is made while it is sent.
    public func upload(_ lines: [String]) -> NetCall {
        NetCall(server: server, endpoint: .post("/imports", body: .stream(contentType: "text/plain") {
            AsyncStream { continuation in
                for line in lines { continuation.yield(Data((line + "\n").utf8)) }
                continuation.finish()
            }
        }), firingFunction: firingFunction)
    }
}

/// A list page as the API wraps it.
public struct BookList: Codable {
    public var books: [Book]

    public init(books: [Book]) {
        self.books = books
    }
}
