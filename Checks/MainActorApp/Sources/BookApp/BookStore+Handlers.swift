import Foundation
import BookAPI
import Salvo

/// The rest of what an app passes closures to, written as the guides write it.
extension BookStore {
    /// Every responder handler set as a property (Docs/GettingStarted.md), then `fire(on:)`.
    /// The handlers run on the callback queue; they hand what they read to the main actor.
    public func loadWithHandlers(_ id: Int, then done: @escaping @Sendable (String) -> Void) {
        var call = api.book(id)
        call.responder.taskHandler = { task in _ = task }
        call.responder.responseHandler = { response in _ = response }
        call.responder.httpResponseHandler = { response in _ = response.statusCode }
        call.responder.dataHandler = { data in done("data \(data.count)") }
        call.responder.errorHandler = { error in done("error \(error.statusCode ?? 0)") }
        call.responder.serverErrorHandler = { error in done("server error \(error.statusCode ?? 0)") }
        call.responder.errorDataHandler = { data in _ = data }
        call.responder.metricsHandler = { metrics in _ = metrics.count }
        call.responder.append(.onMainActor(progressHandler: { progress in
            self.progress.append(Int((progress.fractionCompleted ?? 0) * 100))   // Docs/Transfers.md
        }))
        call.fire()
    }

    /// A responder made whole (Docs/GettingStarted.md).
    public func loadWithResponderValue(_ id: Int, then done: @escaping @Sendable (Int) -> Void) {
        var call = api.book(id)
        call.responder = NetworkResponder(dataHandler: { data in done(data.count) }, errorHandler: { _ in done(-1) })
        call.fire()
    }

    /// `fire(on:)` with a result, untyped and typed.
    public func loadOnQueue(_ id: Int, then done: @escaping @Sendable (Int?) -> Void) {
        api.book(id).fire(on: .main) { result in done(try? result.get().statusCode) }
    }

    /// `fire(on:)` is for code off the main actor: its types decode there, so they are not the
    /// app's main-actor models (here a dictionary of the book's numbers).
    public func loadTypedOnQueue(_ id: Int, then done: @escaping @Sendable (Bool) -> Void) {
        TypedCall<[String: Int], [String: String]>(api.book(id)).fire(on: .main) { result in done((try? result.get()) != nil) }
    }

    /// `TypedCall.response()`: the value with its head.
    public func loadTypedResponse(_ id: Int) async throws(APIError<APIProblem>) -> Int {
        let response = try await api.typedBook(id).response()
        shown.append(response.value)
        return response.statusCode ?? 0
    }

    /// `download(to:progress:)` updating the model as the body arrives (Docs/Transfers.md).
    public func saveCoverWithProgress(_ id: Int, to file: URL) async throws(NetworkError) -> Int64 {
        try await api.cover(id).download(to: file) { progress in
            self.progress.append(Int((progress.fractionCompleted ?? 0) * 100))
        }.byteCount
    }

    /// `stream(to:)` with a `StreamResponder` (Docs/Streaming.md).
    public func streamCover(_ id: Int, then done: @escaping @Sendable (Int) -> Void) {
        let received = ReceivedBytes()
        api.cover(id).stream(to: StreamResponder(
            head: { head in _ = head.statusCode },
            chunk: { chunk in received.add(chunk.count) },
            completion: { _ in done(received.count) }
        ))
    }

    /// Two calls at once, as Docs/TypedCalls.md says an app target writes them: a `Task` per call
    /// (an `async let` would decode the plain model off the main actor).
    public func loadBoth(_ first: Int, _ second: Int) async throws -> [Book] {
        let one = Task { try await api.typedBook(first).value() }
        let two = Task { try await api.typedBook(second).value() }
        return [try await one.value, try await two.value]
    }

    /// A refresher whose closure makes a value that is not a main-actor model: the body's size.
    public func sizeRefresher(for id: Int) -> Refresher<Int> {
        Refresher(call: api.book(id)) { response in response.data.count }
    }

    /// A pager and a refresher observed from the model (Docs/Paging.md).
    public func observe(_ pager: Pager<Book>, _ refresher: Refresher<Book>) -> [StateObservation] {
        [
            pager.observe { state in self.shown = state.items },
            refresher.observe { state in if let book = state.value { self.shown.append(book) } },
        ]
    }
}

/// Bytes counted from a stream's chunks, on the callback queue.
nonisolated final class ReceivedBytes: @unchecked Sendable {
    // @unchecked: `lock` guards `total`, the only state.
    private let lock = NSLock()
    private var total = 0

    var count: Int { lock.withLock { total } }

    func add(_ bytes: Int) { lock.withLock { total += bytes } }
}
