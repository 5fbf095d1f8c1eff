import Foundation
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// The same pager, unchanged, over Salvo's mock firing and over record then replay.
@Suite struct PagerFiringModesTests {
    @Test func pagesThroughMockFiringWithLinkHeaders() async throws {
        let firing = FiringFunction.mock { request in
            let page = Int(request.query["page"] ?? "1") ?? 1
            let ids = (page - 1) * 10 + 1...min(page * 10, 25)
            let items = ids.map { ListItem(id: $0, name: "Item \($0)") }
            let next = page < 3 ? #"</v1/photos?page=\#(page + 1)>; rel="next""# : #"</v1/photos?page=1>; rel="first""#
            return .json(items, headers: ["Link": next])
        }
        let call = NetCall(server: ServerConfig(host: "api.example.com", basePath: "v1"), endpoint: .get("/photos"), firingFunction: firing)
        let pager = Pager(call: call, strategy: .linkHeader(), decoder: .array(), id: \ListItem.id)
        try await withTimeout { await pager.loadPagesUntilEndOrError() }
        #expect(pager.items.map(\.id) == Array(1...25))
        #expect(!pager.hasMore && pager.error == nil)
    }

    @Test func recordedPagesReplayOffline() async throws {
        let key = uniqueKey()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-paging-\(key)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = PagedList.cursorInHeader.path(key: key)

        let recording = try await PagedList.cursorInHeader.pager(server: .loopback(), firing: .recording(to: folder), key: key)
        try await withTimeout { await recording.loadPagesUntilEndOrError() }
        #expect(recording.items.map(\.id) == Array(1...95))
        #expect(try await LoopbackServer.count(path: path) == 10)

        let replay = try await PagedList.cursorInHeader.pager(server: .loopback(), firing: .replaying(from: folder), key: key)
        try await withTimeout { await replay.loadPagesUntilEndOrError() }
        #expect(replay.items.map(\.id) == Array(1...95))
        #expect(replay.error == nil)
        #expect(try await LoopbackServer.count(path: path) == 10, "replay sent nothing")
    }
}
