import Foundation
import Observation
import Testing
import Salvo
import SalvoObservation

// The Observation code in Docs/Paging.md and Docs/Reactive.md, kept here so it cannot rot; the
// SwiftUI view of the recipe is in SwiftUIPagingSample.swift (Apple platforms only).

enum ObservationSamples {
    struct Photo: Codable, Sendable, Identifiable, Hashable {
        let id: Int
        let name: String
    }

    /// For previews and tests: 45 photos served page by page from an array, no server.
    static func previewPager() -> Pager<Photo> {
        let photos = (1...45).map { Photo(id: $0, name: "Photo \($0)") }
        let routes = MockRoutes([.pages("/photos", of: photos, paging: .pageNumber(pageSize: 20))])
        let call = NetCall(server: ServerConfig(host: "photos.example"), endpoint: .get("/photos"), firingFunction: .mock(routes))
        return Pager(call: call, strategy: .pageNumber(pageSize: 20), decoder: .object(), id: \Photo.id)
    }

    /// What the SwiftUI list does with its model, without the view.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor static func driveLikeAList(_ model: PagingModel<Photo>) async {
        await model.loadFirstPageIfNeeded()                 // .task { }
        if let last = model.items.last {
            model.loadNextPageIfNeeded(currentItem: last)   // .onAppear of each row
            await model.waitForLoad()                       // a test or a script waits for it to land
        }
        await model.loadNextPage()                          // a "Load more" button
        await model.refresh()                               // .refreshable { }
        if model.error != nil {
            await model.retry()                             // the error row's Retry button
        }
    }

    /// Observing the model outside SwiftUI, the way SwiftUI does: once per change.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor static func printChanges(of model: PagingModel<Photo>) {
        withObservationTracking {
            _ = model.items
        } onChange: {
            print("the items are about to change")
        }
    }
}

@Suite struct ObservationSamplesTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Test func samplesRunAgainstMockPages() async throws {
        let model = PagingModel(pager: ObservationSamples.previewPager())
        ObservationSamples.printChanges(of: model)
        await ObservationSamples.driveLikeAList(model)
        #expect(model.items.map(\.id) == Array(1...20), "refreshed back to the first page")
        #expect(model.hasMore && !model.isLoading && model.error == nil)
    }
}
