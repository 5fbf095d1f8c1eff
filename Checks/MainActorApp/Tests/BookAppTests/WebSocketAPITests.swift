import Foundation
import Testing
import BookAPI
import Salvo
import SalvoTesting

/// A plain model of the app target, as a live feed sends it.
struct ShelfUpdate: Codable, Equatable {
    let title: String
}

/// A request the app sends over the socket.
struct Subscribe: Codable {
    let shelf: String
}

/// A model whose conformance is not isolated to the main actor, for decoding anywhere.
nonisolated struct ShelfStats: Codable, Sendable {
    let count: Int
}

/// The WebSocket APIs that take a closure or a model type, and the refresher that decodes off the
/// main actor, written from the app target as Docs/WebSockets.md and Docs/Paging.md write them.
@Suite struct WebSocketAPITests {
    private let server = ServerConfig(scheme: "wss", host: "books.example.com")

    @Test func typedMessagesDecodeInTheAppTargetAndTheScriptSendsJSON() async throws {
        var feed = WebSocketCall(server: server, endpoint: .get("/shelf"))
        let mock = MockWebSocketServer(handshakes: [.accept()], clock: .live) { peer in
            _ = await peer.receive()
            try await peer.send(json: ["title": "Dune"])   // a script runs off the main actor: JSON as a dictionary, as the guide writes it
        }
        feed.transport = .mock(mock)
        let connection = try await feed.connect()
        try await connection.send(Subscribe(shelf: "sci-fi"))
        var updates: [ShelfUpdate] = []
        for try await update in connection.messages(decoding: ShelfUpdate.self) {
            updates.append(update)
        }
        #expect(updates == [ShelfUpdate(title: "Dune")])
        #expect(mock.log.sentMessages.count == 1)
    }

    @Test func aReplyingServerAndAResponderFiredBlind() async throws {
        var feed = WebSocketCall(server: server, endpoint: .get("/shelf"), callbackQueue: .immediate)
        feed.transport = .mock(.replying(greeting: [.text("hello")], clock: .live) { message in [message] })
        let (messages, received) = AsyncStream<WebSocketMessage>.makeStream()
        feed.responder = WebSocketResponder(
            opened: { connection in Task { try await connection.send("ping") } },
            message: { message in received.yield(message) },
            closed: { _ in received.finish() },
            failed: { _ in received.finish() }
        )
        let trigger: any Fireable = feed
        let task = trigger.fire()
        var seen: [WebSocketMessage] = []
        for await message in messages {
            seen.append(message)
            if seen.count == 2 { break }
        }
        task.cancel()
        #expect(seen == [.text("hello"), .text("ping")])
    }

    @Test func aRefresherDecodesAnywhereForAModelThatIsNotMainActor() async throws {
        var call = NetCall(server: ServerConfig(host: "books.example.com"), endpoint: .get("/stats"))
        call.firingFunction = .mock(.json(["count": 3]))
        let stats = Refresher(decodingAnywhere: TypedCall<ShelfStats, APIProblem>(call))
        await stats.refresh()
        #expect(stats.state.value?.count == 3)
    }
}
