import BookAPI
import Salvo

/// The view-model module's part: it takes typed calls the API module configured, sets their
/// typed handlers to its own methods, and hands them on as `any Fireable` to whatever fires them.
public final class ShelfModel {
    public private(set) var book: Book?
    public private(set) var shelf: [Book] = []
    public private(set) var problems: [String] = []
    /// How many outcomes arrived, values and problems alike.
    public private(set) var outcomes = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init() {}

    /// The calls a refresh of this screen fires: `book` and `shelf` with this model's handlers.
    public func refreshCalls(book: TypedCall<Book, APIProblem>, shelf: TypedCall<[Book], APIProblem>) -> [any Fireable] {
        var book = book
        book.valueHandler = show
        book.apiErrorHandler = report
        var shelf = shelf
        shelf.valueHandler = { books in self.shelf = books; self.landed() }
        shelf.apiErrorHandler = report
        return [book, shelf]
    }

    /// A refresher of `book` kept by this model: its value type comes from the typed call, and a
    /// failed refresh's error body reaches ``report(_:)``.
    public func refresher(of book: TypedCall<Book, APIProblem>) -> Refresher<Book> {
        var book = book
        book.apiErrorHandler = report
        return Refresher(book)
    }

    /// A pager of `shelf` kept by this model: a page the server refuses reaches ``report(_:)``
    /// with its error body decoded, while the pager keeps its items.
    public func pager(of shelf: TypedCall<[Book], APIProblem>) -> Pager<Book> {
        var shelf = shelf
        shelf.apiErrorHandler = report
        // `Pager(shelf, strategy:id:)` cannot take a main-actor model (`Item: Decodable` on a
        // `Sendable` type parameter); the page-body form decodes on the main actor.
        return Pager(call: shelf, strategy: .pageNumber(pageSize: 2), id: \Book.id) { (books: [Book]) in Page(items: books) }
    }

    /// Returns once at least `count` outcomes arrived.
    public func waitForOutcomes(_ count: Int) async {
        if outcomes >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    private func show(_ book: Book) {
        self.book = book
        landed()
    }

    private func report(_ error: APIError<APIProblem>) {
        problems.append(error.body?.message ?? error.localizedDescription)
        landed()
    }

    private func landed() {
        outcomes += 1
        let ready = waiters.filter { outcomes >= $0.count }
        waiters.removeAll { outcomes >= $0.count }
        ready.forEach { $0.continuation.resume() }
    }
}
