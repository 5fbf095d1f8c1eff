import Dispatch
import Foundation
import Testing
import Salvo

// The code in Docs/Paging.md, kept here so it cannot rot. The @Test at the end runs the samples
// against the in-process fake list session.

enum PagingSamples {
    // MARK: - Quick start

    struct Photo: Codable, Identifiable {
        let id: Int
        let name: String
    }

    static func photosPager(server: ServerConfig) -> Pager<Photo> {
        let call = NetCall(server: server, endpoint: .get("/photos"))
        let pager = Pager(call: call, strategy: .pageNumber(pageSize: 20),
                          decoder: .object(itemsKey: "items"), id: \Photo.id)
        return pager
    }

    static func quickStart(_ pager: Pager<Photo>) async {
        await pager.loadNextPage()              // page 1
        await pager.loadNextPage()              // page 2, appended
        let state = pager.state
        print("\(state.items.count) photos, more: \(state.hasMore)")
        await pager.refresh()                   // page 1 again; replaces the items when it lands
    }

    // MARK: - Strategies

    static let strategies: [PagingStrategy] = [
        .pageNumber(pageSize: 20),                                  // ?page=1&per_page=20, page=2, …
        .pageNumber(pageSize: 50, firstPage: 0, pageName: "p", pageSizeName: "size"),
        .offset(limit: 50),                                         // ?offset=0&limit=50, offset=50, …
        .cursor(from: .body),                                       // ?cursor=<next_cursor from the body>
        .cursor(queryName: "after", from: .header("X-Next-Cursor")),
        .linkHeader(),                                              // Link: <…>; rel="next"
    ]

    static let nextPageHeader = PagingStrategy(
        firstPage: { call in call },
        nextPage: { page in
            guard let next = page.response.headers["X-Next-Page"] else { return nil }
            var call = page.baseCall
            call.endpoint = call.endpoint.setting(query: "p", to: next)
            return call
        }
    )

    static func otherRelations(_ issuesCall: NetCall) async throws -> (URL?, [String]) {
        let response = try await issuesCall.response()
        let lastPage = response.links.url(forRelation: "last", relativeTo: response.url)
        let relations = response.links.links.flatMap(\.relations)     // ["next", "last"]
        return (lastPage, relations)
    }

    // MARK: - Decoding pages

    struct PhotoList: Decodable, Sendable {
        struct Meta: Decodable, Sendable { let next: String? }
        let data: [Photo]
        let meta: Meta
    }

    static let decoders: [PageDecoder<Photo>] = [
        .array(),                                                   // [{…}, {…}]
        .object(),                                                  // {"items": […], "total": 95, …}
        .object(itemsKey: "data.results", nextCursorKey: "paging.next"),
        .decoding(PhotoList.self) { body in Page(items: body.data, nextCursor: body.meta.next) },
    ]

    // MARK: - Infinite scrolling from @MainActor code

    @MainActor final class PhotosViewModel {
        private(set) var photos: [Photo] = []
        private(set) var isLoading = false
        private(set) var errorMessage: String?
        let pager: Pager<Photo>

        init(pager: Pager<Photo>) {
            self.pager = pager
            pager.observe { [weak self] state in
                self?.photos = state.items
                self?.isLoading = state.isLoading
                self?.errorMessage = state.error?.localizedDescription
            }
        }

        func rowAppeared(_ photo: Photo) {      // SwiftUI: .onAppear { model.rowAppeared(photo) }
            pager.loadNextPageIfNeeded(currentItem: photo, distance: 5)
        }

        func pulledToRefresh() async {          // SwiftUI: .refreshable { await model.pulledToRefresh() }
            await pager.refresh()
        }

        func retryTapped() {
            Task { await pager.retry() }
        }
    }

    // MARK: - A command-line program, no run loop

    static func printAll(_ pager: Pager<Photo>) async {
        while pager.hasMore {
            await pager.loadNextPage()
            if let error = pager.error {
                print("failed: \(error)")
                return
            }
        }
        print("\(pager.items.count) photos")
    }

    static func watch(_ pager: Pager<Photo>) async {
        for await state in pager.states() where !state.isLoading {
            print("\(state.items.count) photos")
            if !state.hasMore { break }
        }
    }

    // MARK: - Refreshing non-paged calls

    struct Profile: Decodable, Sendable { let name: String }
    struct Problem: Decodable, Sendable { let message: String }

    /// "Refreshing calls that are not paged", from an app target: decoded on the main actor.
    @MainActor static func mainActorProfile(server: ServerConfig) -> Refresher<Profile> {
        let meCall = NetCall(server: server, endpoint: .get("/me"))
        let profile = Refresher(call: meCall, decodingOnMainActor: { response in
            try meCall.server.decoder.decode(Profile.self, from: response.data)
        })
        return profile
    }

    static func refreshScreen(server: ServerConfig, photos: Pager<Photo>) async {
        let profile = Refresher(call: NetCall(server: server, endpoint: .get("/me")), as: Profile.self)
        let screen = RefreshGroup([profile, photos])
        await screen.refresh()                  // both at once; returns when both are in
        if let error = screen.error { print(error) }
        print(profile.value?.name ?? "-", photos.items.count)
    }

    static func refreshAndFire(photos: Pager<Photo>, markSeen: NetCall, badge: TypedCall<Int, Problem>) async {
        let screen = RefreshGroup([photos], firing: [markSeen, badge])   // a NetCall, a TypedCall<Int, Problem>
        await screen.refresh()                  // returns once the page landed and both calls' handlers ran
    }

    // MARK: - Testing with another firing function

    static func mocked(_ pager: Pager<Photo>, firing: FiringFunction) -> Pager<Photo> {
        var call = pager.call
        call.firingFunction = firing
        return Pager(call: call, strategy: pager.strategy, decoder: pager.decoder, id: \Photo.id)
    }
}

@Suite struct PagingSamplesTests {
    @Test func samplesRunAgainstMockFiring() async throws {
        let server = FakeListServer(.init(total: 45))
        let fakeServer = ServerConfig(scheme: "http", host: "lists.test", port: 8080)
        let real = PagingSamples.photosPager(server: fakeServer)
        let pager = PagingSamples.mocked(real, firing: FiringFunction { call, channel in
            var call = call
            call.endpoint.path = "/list/k/pages"   // the fake serves its lists there
            return server.firing(call, channel)
        })
        let printed = await SampleOutput.capturing { await PagingSamples.quickStart(pager) }.lines
        #expect(printed == ["40 photos, more: true"])
        #expect(pager.items.count == 20)
        await PagingSamples.printAll(pager)
        #expect(pager.items.count == 45)
        await PagingSamples.watch(pager)
        #expect(PagingSamples.strategies.count == 6 && PagingSamples.decoders.count == 4)
        await MainActor.run {
            let model = PagingSamples.PhotosViewModel(pager: pager)
            model.rowAppeared(pager.items[0])
        }
    }
}
