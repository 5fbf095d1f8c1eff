import Foundation
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// `WebSocketInbox`, what a connection's reader hands the app's loop through: the order, the end,
/// what happens when the app stops reading, and the hand-over of the channel to the app's loop.
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
        let reader = Task { _ = await inbox.yield(.text("b")) }   // two unread: waits
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
        try #require(await eventually { inbox.isAppWaiting })
        var second = messages.makeAsyncIterator()
        #expect(try await second.next() == nil)
        await inbox.yield(.text("a"))
        #expect(try await first.value == .text("a"))
    }

    // MARK: - The hand-over: once the app's loop waits on an empty inbox, it reads the channel itself
    private func call(_ mock: MockWebSocketServer) -> WebSocketCall {
        var call = WebSocketCall(server: ServerConfig(scheme: "wss", host: "feed.example.com"), endpoint: .get("/feed"))
        call.transport = .mock(mock)
        return call
    }

    /// A peer that sends `"first"` when the app sends its first message, then answers each later
    /// one with `answers` (by the number of the app's message, from 1).
    private func server(_ answers: @escaping @Sendable (Int, MockWebSocketPeer) async throws -> Void = { _, _ in }) -> MockWebSocketServer {
        MockWebSocketServer { peer in
            guard await peer.receive() != nil else { return }
            try await peer.send("first")
            var count = 0
            while await peer.receive() != nil {
                count += 1
                try await answers(count, peer)
            }
        }
    }

    private static func allMessages(_ messages: WebSocketMessages) async throws -> [WebSocketMessage] {
        var received: [WebSocketMessage] = []
        for try await message in messages { received.append(message) }
        return received
    }

    /// Starts `loop` on the connection's messages, waits until it waits on an empty inbox, sends
    /// "go" (the peer answers "first", handed to the waiting loop) and returns once the reader has
    /// handed the loop the channel.
    private func handOver<Value: Sendable>(
        _ connection: WebSocketConnection,
        loop: @escaping @Sendable (WebSocketMessages) async throws -> Value
    ) async throws -> Task<Value, any Error> {
        let reading = Task { try await loop(connection.messages) }
        try #require(await eventually { connection.inbox.isAppWaiting })
        try await connection.send("go")
        // Counted, not polled: a loop that leaves after one message gives the channel back at once.
        try #require(await eventually { connection.inbox.handOvers > 0 })
        return reading
    }

    /// Over the mock, and through `.recording(through:into:)` around it (which pulls through).
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func cancellingTheLoopWhileItReadsTheChannelClosesWith1000AndDoesNotReconnect(isRecorded: Bool) async throws {
        let time = TestClock()
        let mock = server()
        var call = call(mock)
        let recorder = WebSocketRecorder()
        if isRecorded { call.transport = .recording(through: .mock(mock), into: recorder) }
        call.reconnection = ReconnectionPolicy(delay: 1, jitter: 0, clock: time.clock)
        let connection = try await call.connect()
        let reading = try await handOver(connection) { messages in
            for try await _ in messages {}
        }
        try #require(await eventually { connection.inbox.isReadByApp == true })
        reading.cancel()
        let result = await reading.result
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result { #expect((error as? NetworkError)?.isCancelled == true) }
        // The cancelled read ended the mock's stream: the reader sees that end and stops, as the app closed.
        await connection.reader?.value
        #expect(mock.log.closes == [WebSocketClose(.normalClosure)])
        #expect(mock.log.handshakes.count == 1)
        #expect(time.sleeps.isEmpty)
        if isRecorded { #expect(recorder.transcript.events.contains(.receivedText("first"))) }
    }

    @Test(.timeLimit(.minutes(1)))
    func closingWhileTheLoopDoesNotReadGivesTheChannelBackSoThePeersAnswerIsRead() async throws {
        let mock = server()
        let connection = try await call(mock).connect()
        let (resumed, resume) = AsyncStream<Void>.makeStream()
        let reading = try await handOver(connection) { messages in
            var iterator = messages.makeAsyncIterator()
            var received = [try await iterator.next()]
            for await _ in resumed { break }
            while let message = try await iterator.next() { received.append(message) }
            return received
        }
        #expect(connection.inbox.isReadByApp == false)   // parked for the loop, which does not read
        await connection.close()
        await connection.reader?.value                   // the reader read the mock's answer
        #expect(connection.peerClose == WebSocketClose(.normalClosure))
        resume.yield()
        #expect(try await reading.value == [.text("first")])
    }

    @Test(.timeLimit(.minutes(1)))
    func leavingTheLoopGivesTheChannelBackSoTheReaderClosesWith1000AndReadsThePeersAnswer() async throws {
        let mock = server()
        let connection = try await call(mock).connect()
        let reading = try await handOver(connection) { messages -> WebSocketMessage? in
            for try await message in messages { return message }
            return nil
        }
        #expect(try await reading.value == .text("first"))
        await connection.reader?.value                   // the reader took the channel back and read to its end
        #expect(mock.log.closes == [WebSocketClose(.normalClosure)])
        #expect(connection.peerClose == WebSocketClose(.normalClosure))
    }

    @Test(.timeLimit(.minutes(1)))
    func aMessageOverTheLimitReadByTheLoopGoesToTheReaderWhichClosesWith1009() async throws {
        let mock = server { _, peer in try await peer.send(.binary(Data(count: 11))) }
        var call = call(mock)
        call.maximumMessageSize = 10
        let connection = try await call.connect()
        let reading = try await handOver(connection, loop: Self.allMessages)
        try #require(await eventually { connection.inbox.isReadByApp == true })
        try await connection.send("too big, please")
        await #expect {
            _ = try await reading.value
        } throws: { error in
            guard case .unacceptableResponse = error as? NetworkError else { return false }
            return "\(error)".contains("1009")
        }
        #expect(mock.log.closes.map(\.code) == [.messageTooBig])
    }

    @Test(.timeLimit(.minutes(1)))
    func thePeersCloseReadByTheLoopEndsItWithThePeersCode() async throws {
        let mock = server { _, peer in await peer.close(.goingAway, reason: "bye") }
        let connection = try await call(mock).connect()
        let reading = try await handOver(connection, loop: Self.allMessages)
        try #require(await eventually { connection.inbox.isReadByApp == true })
        try await connection.send("close, please")
        #expect(try await reading.value == [.text("first")])
        #expect(connection.peerClose == WebSocketClose(.goingAway, reason: "bye"))
    }
}
