import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// `WebSocketInbox`, what a connection's reader hands the app's loop through: the order, the end,
/// and what happens when the app stops reading.
@Suite struct WebSocketInboxTests {
    @Test func unreadMessagesComeBeforeTheErrorWhichIsThrownOnce() async throws {
        let inbox = WebSocketInbox(limit: 4)
        await inbox.yield(.text("a"))
        await inbox.yield(.text("b"))
        inbox.finish(throwing: WebSocketFailure.connectionLost("reset"))
        await inbox.yield(.text("after the end"))
        var iterator = WebSocketMessages(inbox).makeAsyncIterator()
        #expect(try await iterator.next() == .text("a"))
        #expect(try await iterator.next() == .text("b"))
        await #expect(throws: NetworkError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func aWaitingLoopTakesTheMessageAndTheEnd() async throws {
        let inbox = WebSocketInbox(limit: 1)
        let loop = Task { () throws(NetworkError) -> [WebSocketMessage] in
            var received: [WebSocketMessage] = []
            for try await message in WebSocketMessages(inbox) { received.append(message) }
            return received
        }
        await inbox.yield(.text("a"))   // to the waiting loop, or kept: room for one
        await inbox.yield(.text("b"))   // waits until the loop took "a"
        inbox.finish()
        #expect(try await loop.value == [.text("a"), .text("b")])
    }

    @Test func droppingTheIteratorCancelsOnceAndFreesAWaitingReader() async throws {
        let inbox = WebSocketInbox(limit: 2)
        let cancels = Locked(0)
        inbox.onCancel { cancels.withLock { $0 += 1 } }
        await inbox.yield(.text("a"))
        let reader = Task { await inbox.yield(.text("b")) }   // two unread: waits
        func readOneAndDrop() async throws {
            var iterator = WebSocketMessages(inbox).makeAsyncIterator()
            #expect(try await iterator.next() == .text("a"))
        }
        try await readOneAndDrop()
        await reader.value
        #expect(cancels.withLock { $0 } == 1)
        inbox.cancel()
        #expect(cancels.withLock { $0 } == 1)   // a second cancel does not run it again
        var iterator = WebSocketMessages(inbox).makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test func aSecondLoopOverTheSameMessagesEndsRatherThanStealing() async throws {
        let inbox = WebSocketInbox(limit: 2)
        let messages = WebSocketMessages(inbox)
        let first = Task { () throws(NetworkError) -> WebSocketMessage? in
            var iterator = messages.makeAsyncIterator()
            return try await iterator.next()
        }
        while !inbox.isAppWaiting { await Task.yield() }
        var second = messages.makeAsyncIterator()
        #expect(try await second.next() == nil)
        await inbox.yield(.text("a"))
        #expect(try await first.value == .text("a"))
    }
}
