import Foundation
import Salvo

/// A call to the catalogue: its error body is always a ``CatalogProblem``.
public typealias CatalogCall<Value: Decodable & Sendable> = TypedCall<Value, CatalogProblem>

/// The book catalogue's calls, configured once; whoever fires them knows no URL, type or decoder.
///
/// ```swift
/// let api = CatalogAPI(environment: .offline)
/// let dune = try await api.book(id: 1).value()   // a Book, or APIError<CatalogProblem>
/// ```
public struct CatalogAPI: Sendable {
    /// Books per page.
    public static let pageSize = 10
    /// The token the catalogue's favourites route accepts.
    public static let demoToken = "demo-token"

    /// Where the calls go and how they fire.
    public var environment: CatalogEnvironment

    /// The catalogue in `environment`; the reader's token is added to calls that need it.
    public init(environment: CatalogEnvironment) {
        var environment = environment
        environment.server.actions.insert(AuthTokenAction { Self.demoToken }, at: 0)
        self.environment = environment
    }

    /// The catalogue, page by page: a pager over the books call (`?page=N&per_page=10`).
    public func bookPager() -> Pager<Book> {
        let books: CatalogCall<BookPage> = call(.get("/books"))
        return Pager(call: books, strategy: .pageNumber(pageSize: Self.pageSize), id: \Book.id) { page in
            Page(items: page.items, totalPages: page.totalPages)
        }
    }

    /// One page of the catalogue, numbered from 1.
    public func books(page: Int = 1) -> CatalogCall<BookPage> {
        call(.get("/books", query: ["page": "\(page)", "per_page": "\(Self.pageSize)"]))
    }

    /// One book.
    public func book(id: Int) -> CatalogCall<Book> {
        call(.get("/books/\(id)"))
    }

    /// Books whose title or author contains `text`; empty text is refused with a 422 problem.
    public func search(_ text: String) -> CatalogCall<BookList> {
        call(.get("/search", query: ["q": text]))
    }

    /// The signed-in reader's favourite books (needs the auth token).
    public func favourites() -> CatalogCall<BookList> {
        call(Endpoint.get("/favourites").requiringAuthentication())
    }

    /// Uploads `image` as the cover of book `id`, with a caption: a multipart form whose image
    /// part is read from disk as it is sent. Follow it with `.transfer()` for a progress bar.
    public func uploadCover(bookID id: Int, image: URL, caption: String) -> CatalogCall<CoverUpload> {
        call(.post("/books/\(id)/cover", body: .multipart([.field("caption", caption), .file(image, name: "image")])))
    }

    /// Live changes to the catalogue (stock and prices) as Server-Sent Events, five of them,
    /// decoded as ``CatalogUpdate``s; read with `for try await update in api.liveUpdates()`.
    public func liveUpdates() -> ResponseStream<CatalogUpdate> {
        let updates = NetCall(server: environment.server, endpoint: .get("/updates", query: ["count": "5"]), firingFunction: environment.firing)
        // The feed ends after its fifth update; reconnecting would ask for more than was recorded.
        return updates.events(decoding: CatalogUpdate.self, reconnection: .never)
    }

    /// The stock feed, a WebSocket: configured here like every catalogue call (server, token,
    /// transport), connected where it is shown. Send a ``FeedSubscription`` first, then read
    /// ``CatalogUpdate``s with `connection.messages(decoding: CatalogUpdate.self)`.
    public func stockFeed() -> WebSocketCall {
        WebSocketCall(server: environment.server, endpoint: .get("/feed"), transport: environment.webSockets)
    }

    private func call<Value>(_ endpoint: Endpoint) -> CatalogCall<Value> {
        CatalogCall(NetCall(server: environment.server, endpoint: endpoint.timeout(Self.timeout), firingFunction: environment.firing))
    }

    /// Seconds a live server gets to answer before the call fails.
    static let timeout: TimeInterval = 5
}
