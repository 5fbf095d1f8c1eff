import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoDemoKit

/// A view model as a Swift 6 app writes it: isolated to the main actor, attaching its own methods
/// to a typed call without `MainActor.assumeIsolated`.
@MainActor final class BookViewModel {
    private(set) var isLoading = false
    private(set) var title = ""

    func startSpinner(_ task: NetworkTask) { isLoading = true }

    func stopSpinner(_ response: URLResponse?) { isLoading = false }

    /// Fires `call` and returns what the screen shows once the result has arrived.
    func open(_ call: CatalogCall<Book>) async -> String {
        await withCheckedContinuation { shown in
            var call = call
            call.responder.append(.onMainActor(taskHandler: startSpinner, responseHandler: stopSpinner))
            call.fire { result in
                switch result {
                case .success(let response):
                    self.title = response.value.title
                case .failure(let error):
                    self.title = "HTTP \(error.error.statusCode ?? 0): \(error.body?.message ?? error.localizedDescription)"
                }
                shown.resume(returning: "\(self.title) (spinner \(self.isLoading ? "on" : "off"))")
            }
        }
    }
}
