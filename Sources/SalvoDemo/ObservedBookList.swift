import Observation
import Salvo
import SalvoDemoKit
import SalvoObservation

/// The `@Observable` model a SwiftUI `List` of books would hold, driven as the list drives it, with
/// every change SwiftUI would redraw for counted through `withObservationTracking`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor final class ObservedBookList {
    let model: PagingModel<Book>
    private(set) var changes: [String: Int] = [:]

    /// The error the list shows, if a load failed.
    var error: NetworkError? { model.error }

    init(pager: Pager<Book>) {
        model = PagingModel(pager: pager)
        observe("items") { $0.items }
        observe("isLoading") { $0.isLoading }
        observe("isRefreshing") { $0.isRefreshing }
        observe("error") { $0.error }
        observe("hasMore") { $0.hasMore }
    }

    /// Counts each change of `name`, observing it again after every change, as SwiftUI does.
    private func observe<Value>(_ name: String, _ read: @escaping @MainActor @Sendable (PagingModel<Book>) -> Value) {
        withObservationTracking {
            _ = read(model)
        } onChange: { [weak self] in
            MainActor.assumeIsolated {
                self?.changes[name, default: 0] += 1
                self?.observe(name, read)
            }
        }
    }

    /// The list appears, is scrolled to its last row, then pulled to refresh; returns what it shows after each.
    func run() async -> [String] {
        var shown: [String] = []
        await model.loadFirstPageIfNeeded()
        shown.append("appeared → \(model.items.count) books")
        if let last = model.items.last, model.loadNextPageIfNeeded(currentItem: last) {
            await model.waitForLoad()
        }
        shown.append("last row appeared → \(model.items.count) books")
        await model.refresh()
        shown.append("pulled to refresh → \(model.items.count) books")
        return shown
    }
}
