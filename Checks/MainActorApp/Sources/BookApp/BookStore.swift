import Foundation
import Observation
import BookAPI
import Salvo
import SalvoObservation

/// The app module: a main-actor model that fires the API's calls through every API an app uses.
@Observable
public final class BookStore {
    public internal(set) var shown: [Book] = []
    public private(set) var problems: [String] = []
    public internal(set) var progress: [Int] = []
    public let api: BookAPI

    public init(api: BookAPI) {
        self.api = api
    }

    /// `TypedCall(call).value()` over an untyped call: decodes with the server's decoder, in the caller's isolation.
    public func load(_ id: Int) async {
        do {
            shown.append(try await TypedCall<Book, APIProblem>(api.book(id)).value())
        } catch {
            problems.append(error.body?.message ?? error.error.localizedDescription)
        }
    }

    /// `value(as:)` without an error body.
    public func title(of id: Int) async throws(NetworkError) -> String {
        try await api.book(id).value(as: Book.self).title
    }

    /// A `.decoding` responder whose handler updates the model on the main actor.
    public func loadWithResponder(_ id: Int, then done: @escaping () -> Void) {
        var call = api.book(id)
        call.responder = .decoding(Book.self) { result in
            switch result {
            case .success(let book): self.shown.append(book)
            case .failure(let error): self.problems.append(error.localizedDescription)
            }
            done()
        }
        call.fire()
    }

    /// A typed call's `fire { }` with the API's error body, on an untyped call.
    public func loadWithErrorBody(_ id: Int, then done: @escaping () -> Void) {
        TypedCall<Book, APIProblem>(api.book(id)).fire { result in
            switch result {
            case .success(let response): self.shown.append(response.value)
            case .failure(let error): self.problems.append(error.body?.message ?? "?")
            }
            done()
        }
    }

    /// `.onMainActor` handlers beside the data.
    public func loadRaw(_ id: Int, then done: @escaping (Data) -> Void) {
        var call = api.book(id)
        call.responder.append(.onMainActor(dataHandler: { data in done(data) }))
        call.fire()
    }

    /// `fire { }` on an untyped call.
    public func loadStatus(_ id: Int, then done: @escaping (Int?) -> Void) {
        api.book(id).fire { result in
            done(try? result.get().statusCode)
        }
    }

    /// `TypedCall<Book, APIProblem>`, async and with `fire { }`.
    public func loadTyped(_ id: Int) async throws(APIError<APIProblem>) -> Book {
        try await api.typedBook(id).value()
    }

    public func loadTyped(_ id: Int, then done: @escaping (Result<Book, APIError<APIProblem>>) -> Void) {
        api.typedBook(id).fire { result in done(result.map { $0.value }) }
    }

    public func create(_ book: Book) async throws(APIError<APIProblem>) -> Book {
        try await api.create(book).value()
    }

    /// `jsonLines(of:)`.
    public func followImport() async throws(NetworkError) {
        for try await update in api.importProgress().jsonLines(of: ImportProgress.self) {
            progress.append(update.percent)
        }
    }

    /// `events(decoding:)`, and an event decoded by hand.
    public func followImportEvents() async throws(NetworkError) {
        for try await update in api.importEvents().events(decoding: ImportProgress.self, reconnection: .never) {
            progress.append(update.percent)
        }
    }

    public func firstEvent() async throws(NetworkError) -> ImportProgress? {
        for try await event in api.importEvents().events(reconnection: .never) {
            return try event.decode(ImportProgress.self)
        }
        return nil
    }

    /// `download(to:)`.
    public func saveCover(_ id: Int, to file: URL) async throws(NetworkError) -> Int64 {
        try await api.cover(id).download(to: file).byteCount
    }

    /// `Refresher`: its value is readable from any thread, so a main-actor model is decoded by a
    /// closure on the main actor (`Refresher(call:as:)` needs a nonisolated conformance).
    public func refresher(for id: Int) -> Refresher<Book> {
        let call = api.book(id)
        return Refresher(call: call, decodingOnMainActor: { response in
            try call.server.decoder.decode(Book.self, from: response.data)
        })
    }

    /// `Pager` and `PagingModel`.
    public func pagingModel() -> PagingModel<Book> {
        PagingModel(pager: api.bookPager())
    }
}
