import Dispatch
import Foundation
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct PagerObservationTests {
    @Test func stateStreamStartsWithTheCurrentStateAndEndsWithTheLoadedOne() async throws {
        let server = FakeListServer()
        let pager = PagedList.pageNumber.pager(server: .fakeLists, firing: server.firing)
        let states = pager.states()
        await pager.loadNextPage()
        await pager.loadNextPage()
        let last = try await withTimeout {
            var seen: [PagingState<ListItem>] = []
            for await state in states {
                seen.append(state)
                if state.pageCount == 2 && !state.isLoading { break }
            }
            return seen
        }
        #expect(last.first.map { $0.items.isEmpty || $0.pageCount == 2 } == true)
        #expect(last.last?.items.count == 20)
    }

    @Test func callbackSeesEveryChangeInOrderOnTheMainActor() async throws {
        let server = FakeListServer()
        let pager = PagedList.offset.pager(server: .fakeLists, firing: server.firing)
        let seen = Locked<[(isLoading: Bool, count: Int)]>([])
        pager.observe { state in seen.withLock { $0.append((state.isLoading, state.items.count)) } }
        await pager.loadNextPage()
        await pager.refresh()
        try await waitUntil { seen.withLock { $0.count } == 5 }
        let events = seen.withLock { $0 }
        #expect(events.map(\.isLoading) == [false, true, false, true, false])
        #expect(events.map(\.count) == [0, 0, 10, 10, 10])
    }

    @Test func cancelledObservationHearsNothingMore() async throws {
        let server = FakeListServer()
        let pager = PagedList.offset.pager(server: .fakeLists, firing: server.firing)
        let calls = Locked(0)
        let observation = pager.observe { _ in calls.withLock { $0 += 1 } }
        observation.cancel()
        await pager.loadNextPage()
        await mainQueueDrained()
        #expect(calls.withLock { $0 } <= 1, "only the initial state, if it was already queued")
    }

    @Test func streamEndsWhenThePagerIsReleased() async throws {
        var pager: Pager<ListItem>? = PagedList.offset.pager(server: .fakeLists, firing: FakeListServer().firing)
        let states = try #require(pager?.states())
        pager = nil
        let count = try await withTimeout {
            var count = 0
            for await _ in states { count += 1 }
            return count
        }
        #expect(count == 1)
    }

    @MainActor @Test func worksFromMainActorCode() async throws {
        let server = FakeListServer()
        let pager = PagedList.cursorInBody.pager(server: .fakeLists, firing: server.firing)
        final class Box { var counts: [Int] = [] }
        let box = Box()
        let done = Locked(false)
        pager.observe { state in
            box.counts.append(state.items.count)
            if state.items.count == 20 && !state.isLoading { done.withLock { $0 = true } }
        }
        await pager.loadNextPage()
        await pager.loadNextPage()
        try await waitUntil { done.withLock { $0 } }
        #expect(box.counts.last == 20)
        #expect(pager.items.count == 20)
    }
}
