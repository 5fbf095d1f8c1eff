import Foundation
import Testing
import Salvo
import SalvoTesting

// The code in Docs/WebSockets.md, kept here so it cannot rot.

@Suite struct WebSocketsSamples {
    private struct Subscribe: Codable { var channel: String }
    private struct Quote: Codable { var symbol: String }
    private let production = ServerConfig(scheme: "wss", host: "api.example.com")

    @Test func connectingSendingReceiving() async throws {
        var lines: [String] = []
        var sizes: [Int] = []

        var feed = WebSocketCall(server: production, endpoint: .get("/feed"), subprotocols: ["feed.v2"])
        feed.transport = .mock(.echo)                  // on Linux: .webSocketClient()
        let connection = try await feed.connect()
        try await connection.send("hello")             // text
        try await connection.send(Data([1, 2, 3]))     // binary
        try await connection.send(Subscribe(channel: "books"))   // any Encodable, as JSON text
        for try await message in connection.messages {
            switch message {
            case .text(let text): lines.append(text)
            case .binary(let data): sizes.append(data.count)
            }
            if lines.count + sizes.count == 3 { break }  // leaving the loop closes with 1000
        }

        #expect(lines == ["hello", #"{"channel":"books"}"#])
        #expect(sizes == [3])
    }

    @Test func backpressure() {
        var feed = WebSocketCall(server: production, endpoint: .get("/feed"))
        feed.maximumUnreadMessages = 64          // a burstier feed; 64 × maximumMessageSize at most
        #expect(feed.maximumUnreadMessages == 64)
    }

    private actor Tokens {
        var current = "expired"
        func renew() { current = "renewed" }
    }

    @Test func handshakeActions() async throws {
        let tokens = Tokens()

        let renewal = TokenRenewalAction { await tokens.renew() }
        var feed = WebSocketCall(server: production, endpoint: .get("/feed").requiringAuthentication(),
                                 actions: [RetryAction(), renewal, AuthTokenAction(for: production) { await tokens.current }])
        feed.transport = .mock(MockWebSocketServer(handshakes: [.refuse(statusCode: 401), .accept()]) { _ in })
        let connection = try await feed.connect()   // the 401 renews; the second handshake carries the new token

        #expect(connection.url.absoluteString == "wss://api.example.com/feed")
        #expect(await tokens.current == "renewed")
    }

    @Test func typedMessages() async throws {
        var board: [String] = []
        var call = WebSocketCall(server: production, endpoint: .get("/quotes"))
        call.transport = .mock(MockWebSocketServer { peer in try await peer.send(json: ["symbol": "ACME"]) })
        let connection = try await call.connect()

        for try await quote in connection.messages(decoding: Quote.self) {
            board.append(quote.symbol)
        }

        #expect(board == ["ACME"])
    }

    @Test func reconnectionAndFiring() async {
        var feed = WebSocketCall(server: production, endpoint: .get("/feed"), callbackQueue: .immediate)
        let server = MockWebSocketServer { peer in try await peer.send("tick") }
        feed.transport = .mock(server)
        let (stream, ticker) = AsyncStream<WebSocketMessage>.makeStream()
        let banner = AsyncStream<NetworkError>.makeStream().continuation

        feed.reconnection = ReconnectionPolicy(delay: 1, maximumDelay: 30)
        feed.resubscribe = { connection in
            try await connection.send(Subscribe(channel: "books"))  // the server forgot us
        }

        feed.responder.message = { message in ticker.yield(message) }
        feed.responder.failed = { error in banner.yield(error) }
        let task = feed.fire()

        var first: WebSocketMessage?
        for await message in stream {
            first = message
            break
        }
        #expect(first == .text("tick"))
        task.cancel()
    }

    @Test func mocking() async throws {
        var feed = WebSocketCall(server: production, endpoint: .get("/feed"), subprotocols: ["feed.v2"])

        let time = TestClock()
        let server = MockWebSocketServer(handshakes: [.accept(subprotocols: ["feed.v2"])], clock: time.clock) { peer in
            while let message = await peer.receive() {               // answer each message with messages
                try await peer.send(.text("ack \(message.count)"))
                try await peer.sleep(for: 5)                          // a timer, on the injected clock
                try await peer.send("tick")
                await peer.close(.goingAway, reason: "restarting")    // close with a code
            }
        }
        feed.transport = .mock(server)

        let connection = try await feed.connect()
        try await connection.send("hi")
        var received: [WebSocketMessage] = []
        let reading = Task {
            var received: [WebSocketMessage] = []
            for try await message in connection.messages { received.append(message) }
            return received
        }
        await time.waitForSleepers(1)
        time.advance(by: 5)
        received = try await reading.value
        #expect(received == [.text("ack 2"), .text("tick")])
        #expect(connection.subprotocol == "feed.v2")
        #expect(connection.peerClose == WebSocketClose(.goingAway, reason: "restarting"))
        #expect(server.log.sentMessages == [.text("hi")])
    }

    @Test func recordingAndReplaying() async throws {
        var feed = WebSocketCall(server: production, endpoint: .get("/feed"))
        let live = MockWebSocketServer { peer in
            try await peer.send("hello")
            await peer.close()
        }

        let recorder = WebSocketRecorder()
        feed.transport = .recording(through: .mock(live), into: recorder)   // .webSocketClient() for a live server
        for try await _ in try await feed.connect().messages {}             // … the conversation …
        let fixture = try JSONEncoder().encode(recorder.transcript)
        feed.transport = .mock(.replaying(try JSONDecoder().decode(WebSocketTranscript.self, from: fixture)))

        var replayed: [WebSocketMessage] = []
        for try await message in try await feed.connect().messages { replayed.append(message) }
        #expect(replayed == [.text("hello")])
    }
}
