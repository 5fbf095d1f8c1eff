import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// Backpressure: a connection stops pulling frames from its transport while
/// `maximumUnreadMessages` wait unread.
@Suite struct WebSocketBackpressureTests {
    /// A transport whose peer has 10,000 messages ready and counts how many Salvo pulled. It ends
    /// once the app's close went out, as a real transport ends the channel after the closing
    /// handshake or its close timeout. (Without that end, the connection's reader read on forever
    /// after a test, never suspending, and held one of the cooperative pool's threads for good.)
    private final class Firehose: Sendable {
        let pulls = Counter()
        let (pulled, pull) = AsyncStream<Int>.makeStream()
        let (opened, open) = AsyncStream<Void>.makeStream()
        let isClosed = Locked(false)
        /// Whether the first message waits for the app's first send.
        let isGated: Bool

        init(firstMessageWaitsForASend isGated: Bool = false) {
            self.isGated = isGated
        }

        var transport: WebSocketTransport {
            WebSocketTransport(name: "firehose") { _ in
                WebSocketChannel(receive: {
                    let count = self.pulls.increment()
                    if self.isGated, count == 1 { for await _ in self.opened { break } }
                    self.pull.yield(count)
                    return count > 10_000 || self.isClosed.withLock({ $0 }) ? nil : .message(.text("\(count)"))
                }, send: { frame in
                    if case .close = frame { self.isClosed.withLock { $0 = true } }
                    self.open.yield()
                })
            }
        }

        func waitForPulls(_ count: Int) async {
            if pulls.value >= count { return }
            for await pulled in pulled where pulled >= count { return }
        }
    }

    @Test func aConnectionStopsPullingWhileMaximumUnreadMessagesWaitUnread() async throws {
        let firehose = Firehose()
        var call = WebSocketCall(server: ServerConfig(scheme: "wss", host: "feed.example.com"), endpoint: .get("/feed"))
        call.maximumUnreadMessages = 3
        call.transport = firehose.transport
        let connection = try await call.connect()
        await firehose.waitForPulls(3)
        // Unbounded, the connection pulled all 10,000 in well under this; bounded, it stays at 3.
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(firehose.pulls.value == 3)

        var iterator = connection.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("1"))
        await firehose.waitForPulls(4)   // reading one makes room for one
        #expect(try await iterator.next() == .text("2"))
        await connection.close()
    }
}

extension WebSocketBackpressureTests {
    /// Once the loop has waited, it reads the channel itself; when it then stops asking for
    /// messages (its body busy), the connection takes the channel back and reads ahead again, up to
    /// `maximumUnreadMessages`, rather than leave the peer unread (and its pings unanswered).
    @Test(.timeLimit(.minutes(1)))
    func aLoopThatStopsReadingAfterItWaitedHasTheConnectionReadAheadAgain() async throws {
        let firehose = Firehose(firstMessageWaitsForASend: true)
        var call = WebSocketCall(server: ServerConfig(scheme: "wss", host: "feed.example.com"), endpoint: .get("/feed"))
        call.maximumUnreadMessages = 3
        call.transport = firehose.transport
        let connection = try await call.connect()
        let (resumed, resume) = AsyncStream<Void>.makeStream()
        let reading = Task {
            var iterator = connection.messages.makeAsyncIterator()
            var received = [try await iterator.next()]
            for await _ in resumed { break }           // the loop's body, busy
            received.append(try await iterator.next())
            return received
        }
        try #require(await eventually { connection.inbox.isAppWaiting })
        try await connection.send("go")                // "1", handed to the waiting loop with the channel
        await firehose.waitForPulls(4)                 // taken back after half a second unread: 2, 3, 4 read ahead
        #expect(connection.inbox.isReadByApp == nil)
        resume.yield()
        #expect(try await reading.value == [.text("1"), .text("2")])
        await connection.close()
    }
}

/// A count shared between tasks.
private final class Counter: Sendable {
    private let count = Locked(0)

    var value: Int { count.withLock { $0 } }

    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
