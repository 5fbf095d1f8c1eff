import Foundation
import Salvo

/// The API module: configures calls and knows the server; it fires nothing.
public struct BookAPI {
    public var server: ServerConfig
    public var firingFunction: FiringFunction

    /// The API on `server`, whose answers use `page_count` (snake case) as the real one does.
    public init(server: ServerConfig = BookAPI.defaultServer, firingFunction: FiringFunction = .production) {
        self.server = server
        self.firingFunction = firingFunction
    }

    public static var defaultServer: ServerConfig {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return ServerConfig(host: "books.example", decoder: decoder)
    }

    public func book(_ id: Int) -> NetCall {
        NetCall(server: server, endpoint: .get("/books/\(id)"), firingFunction: firingFunction)
    }

    public func typedBook(_ id: Int) -> TypedCall<Book, APIProblem> {
        TypedCall(book(id))
    }

    public func create(_ book: Book) -> TypedCall<Book, APIProblem> {
        TypedCall(NetCall(server: server, endpoint: .post("/books", body: .json(book)), firingFunction: firingFunction))
    }

    public func books() -> NetCall {
        NetCall(server: server, endpoint: .get("/books"), firingFunction: firingFunction)
    }

    public func bookPager() -> Pager<Book> {
        Pager(call: books(), strategy: .pageNumber(pageSize: 2), decoder: .array(), id: \Book.id)
    }

    public func importProgress() -> NetCall {
        NetCall(server: server, endpoint: .get("/imports/progress"), firingFunction: firingFunction)
    }

    public func importEvents() -> NetCall {
        NetCall(server: server, endpoint: .get("/imports/events"), firingFunction: firingFunction)
    }

    public func cover(_ id: Int) -> NetCall {
        NetCall(server: server, endpoint: .get("/books/\(id)/cover"), firingFunction: firingFunction)
    }

    /// The routes the app answers from in offline mode and in its tests.
    public static func mockRoutes(library: [Book]) -> MockRoutes {
        MockRoutes([
            MockRoute(.get, "/books/:id", onMainActor: { request in
                guard let id = request.parameters["id"].flatMap(Int.init),
                      let book = library.first(where: { $0.id == id }) else {
                    return .json(APIProblem(message: "no such book"), status: 404)
                }
                return .json(book, encoder: snakeCaseEncoder)
            }),
            MockRoute(.get, "/books", onMainActor: { request in
                let page = request.query["page"].flatMap(Int.init) ?? 1
                return .json(Array(library.dropFirst((page - 1) * 2).prefix(2)), encoder: snakeCaseEncoder)
            }),
            MockRoute(.post, "/books", onMainActor: { request in
                do {
                    return .json(try request.decodeBody(as: Book.self, decoder: snakeCaseDecoder), status: 201, encoder: snakeCaseEncoder)
                } catch {
                    return .json(APIProblem(message: "not a book"), status: 422)
                }
            }),
            .get("/imports/progress", .text("{\"percent\":50}\n{\"percent\":100}\n")),
            .get("/imports/events", .text("data: {\"percent\":10}\n\ndata: {\"percent\":90}\n\n",
                                           headers: ["Content-Type": "text/event-stream"])),
            .get("/books/:id/cover", .data(Data(repeating: 7, count: 1_000))),
        ])
    }

    private static var snakeCaseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    private static var snakeCaseDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
