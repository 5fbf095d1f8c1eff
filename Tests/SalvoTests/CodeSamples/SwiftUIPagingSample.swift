// Docs/Paging.md's SwiftUI recipe, compiled wherever SwiftUI exists (Apple platforms). The model it
// drives is tested on Linux (Observation/PagingModelTests.swift, ObservationSamples.swift) and the
// demo drives the same model (`swift run salvo-demo`).
#if canImport(SwiftUI)
import SwiftUI
import Salvo
import SalvoObservation

/// An infinitely scrolling, pull-to-refresh list with loading, error and empty states.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct PhotosView: View {
    typealias Photo = ObservationSamples.Photo

    @State private var model: PagingModel<Photo>

    init(pager: Pager<Photo>) {
        _model = State(initialValue: PagingModel(pager: pager))
    }

    var body: some View {
        List {
            ForEach(model.items) { photo in
                Text(photo.name)
                    .onAppear { model.loadNextPageIfNeeded(currentItem: photo) }
            }
            if let error = model.error {
                VStack(alignment: .leading) {
                    Text(error.localizedDescription)
                    Button("Retry") { Task { await model.retry() } }
                }
            } else if model.isLoading && !model.isRefreshing {
                ProgressView()
            }
        }
        .overlay {
            if model.items.isEmpty && !model.hasMore && model.error == nil {
                ContentUnavailableView("No photos", systemImage: "photo.on.rectangle")
            }
        }
        .refreshable { await model.refresh() }
        .task { await model.loadFirstPageIfNeeded() }
    }
}

/// A preview needs no server: the pager's call fires against paged mock routes.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct PhotosViewPreview: PreviewProvider {
    static var previews: some View {
        PhotosView(pager: ObservationSamples.previewPager())
    }
}
#endif
