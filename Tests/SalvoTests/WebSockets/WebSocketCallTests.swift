import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// A plain model: not `Sendable`, as in a default-MainActor app target.
private struct Quote: Codable, Equatable {
    var symbol: String
    var price: Int
}

private struct Subscribe: Codable {
    var channel: String
}

/// WebSocketCall over the mock transport: the API, actions on the handshake, errors, reconnection.
@Suite struct WebSocketCallTests {
    private let server = ServerConfig(scheme: "wss", host: "feed.example.com", basePath: "v1")

    private func call(_ mock: MockWebSocketServer, path: EndpointPath = "/feed") -> WebSocketCall {
        var call = WebSocketCall(server: server, endpoint: .get(path))
        call.transport = .mock(mock)
        return call
    }

    @Test func echoesTextAndBinaryInOrder() async throws {
        let connection = try await call(.echo).connect()
        try await connection.send("hello")
        try await connection.send(Data([1, 2, 3]))
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 2 { break }
        }
        #expect(received == [.text("hello"), .binary(Data([1, 2, 3]))])
    }

    @Test func handshakeGoesToTheWebSocketURLWithHeadersSubprotocolsAndTheActionsToken() async throws {
        let mock = MockWebSocketServer(handshakes: [.accept(subprotocols: ["feed.v2"])]) { _ in }
        var call = call(mock)
        call.server.requiresAuthentication = true
        call.server.actions = [AuthTokenAction { "t0k3n" }]
        call.endpoint.headers["X-Client"] = "tests"
        call.subprotocols = ["feed.v3", "feed.v2"]
        let connection = try await call.connect()
        let handshake = try #require(mock.log.handshakes.first)
        #expect(handshake.url?.absoluteString == "wss://feed.example.com/v1/feed")
        #expect(handshake.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")
        #expect(handshake.value(forHTTPHeaderField: "X-Client") == "tests")
        #expect(handshake.value(forHTTPHeaderField: "Sec-WebSocket-Protocol") == "feed.v3, feed.v2")
        #expect(connection.subprotocol == "feed.v2")
    }

    @Test func httpsServerIsSentAsWSS() async throws {
        let mock = MockWebSocketServer { _ in }
        var call = call(mock)
        call.server.scheme = "http"
        _ = try await call.connect()
        #expect(mock.log.handshakes.first?.url?.scheme == "ws")
    }

    @Test func typedMessagesDecodeAndEncodePlainModels() async throws {
        let mock = MockWebSocketServer.replying { message in
            [.text(#"{"symbol":"ACME","price":10}"#), .text(#"{"symbol":"ACME","price":11}"#), message]
        }
        let connection = try await call(mock).connect()
        try await connection.send(Subscribe(channel: "quotes"))
        var quotes: [Quote] = []
        for try await quote in connection.messages(decoding: Quote.self) {
            quotes.append(quote)
            if quotes.count == 2 { break }
        }
        #expect(quotes == [Quote(symbol: "ACME", price: 10), Quote(symbol: "ACME", price: 11)])
        #expect(mock.log.sentMessages == [.text(#"{"channel":"quotes"}"#)])
    }

    @Test func aMessageThatDoesNotDecodeThrowsDecodingWithItsBytes() async throws {
        let mock = MockWebSocketServer { peer in try await peer.send("not json") }
        let connection = try await call(mock).connect()
        await #expect {
            for try await _ in connection.messages(decoding: Quote.self) {}
        } throws: { error in
            guard case .decoding(let problem) = error as? NetworkError else { return false }
            return problem.body == Data("not json".utf8)
        }
    }

    @Test func peerCloseEndsTheLoopAndReportsItsCodeAndReason() async throws {
        let mock = MockWebSocketServer { peer in
            try await peer.send("bye")
            await peer.close(.goingAway, reason: "restarting")
        }
        let connection = try await call(mock).connect()
        var received: [WebSocketMessage] = []
        for try await message in connection.messages { received.append(message) }
        #expect(received == [.text("bye")])
        #expect(connection.peerClose == WebSocketClose(.goingAway, reason: "restarting"))
    }

    @Test func appCloseSendsCodeAndReasonAndEndsTheLoop() async throws {
        let mock = MockWebSocketServer.echo
        let connection = try await call(mock).connect()
        await connection.close(WebSocketClose.Code(rawValue: 4001), reason: "done")
        for try await _ in connection.messages {}
        #expect(mock.log.closes == [WebSocketClose(WebSocketClose.Code(rawValue: 4001), reason: "done")])
        await #expect(throws: NetworkError.self) { try await connection.send("late") }
    }

    @Test func aCodeThatMayNotBeSentIsSentAs1000AndALongReasonIsCut() async throws {
        let mock = MockWebSocketServer.echo
        let connection = try await call(mock).connect()
        await connection.close(.abnormalClosure, reason: String(repeating: "é", count: 100))
        let close = try #require(mock.log.closes.first)
        #expect(close.code == .normalClosure)
        #expect(close.reason.utf8.count <= 123)
        #expect(close.reason.allSatisfy { $0 == "é" })
    }

    @Test func refusedHandshakeIsServerStatusNamingTheURL() async throws {
        let mock = MockWebSocketServer(handshakes: [.refuse(statusCode: 401)]) { _ in }
        await #expect {
            _ = try await call(mock).connect()
        } throws: { error in
            let error = error as? NetworkError
            return error?.statusCode == 401 && "\(error!)".contains("wss://feed.example.com/v1/feed")
        }
    }

    @Test func droppedConnectionThrowsATransportErrorNamingTheURL() async throws {
        let mock = MockWebSocketServer { peer in
            try await peer.send("one")
            peer.drop()
        }
        let connection = try await call(mock).connect()
        var received: [WebSocketMessage] = []
        await #expect {
            for try await message in connection.messages { received.append(message) }
        } throws: { error in
            guard case .transport(let urlError) = error as? NetworkError else { return false }
            return urlError.code == .networkConnectionLost && "\(error)".contains("wss://feed.example.com/v1/feed")
        }
        #expect(received == [.text("one")])
    }

    @Test func aMessageOverTheLimitClosesWith1009AndSaysWhichLimit() async throws {
        let mock = MockWebSocketServer { peer in
            try await peer.send(.binary(Data(count: 11)))
            _ = await peer.receive()
        }
        var call = call(mock)
        call.maximumMessageSize = 10
        let connection = try await call.connect()
        await #expect {
            for try await _ in connection.messages {}
        } throws: { error in
            guard case .unacceptableResponse = error as? NetworkError else { return false }
            return "\(error)".contains("maximumMessageSize (10 bytes)") && "\(error)".contains("1009")
        }
        #expect(mock.log.closes.map(\.code) == [.messageTooBig])
    }

    @Test func cancellingTheReadingTaskClosesWith1000AndThrowsCancelled() async throws {
        let mock = MockWebSocketServer { peer in
            try await peer.send("first")
            _ = await peer.receive()
        }
        let connection = try await call(mock).connect()
        let (firstArrived, arrived) = AsyncStream<Void>.makeStream()
        let reading = Task {
            for try await _ in connection.messages { arrived.yield() }
        }
        for await _ in firstArrived { break }
        reading.cancel()
        await #expect(throws: NetworkError.self) { try await reading.value }
        let result = await reading.result
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result { #expect((error as? NetworkError)?.isCancelled == true) }
        try await waitUntil { !mock.log.closes.isEmpty }
        #expect(mock.log.closes == [WebSocketClose(.normalClosure)])
    }

    @Test func aTimerOnTheInjectedClockSendsWithoutWaiting() async throws {
        let time = TestClock()
        let mock = MockWebSocketServer(clock: time.clock) { peer in
            try await peer.sleep(for: 30)
            try await peer.send("tick")
            await peer.close()
        }
        let connection = try await call(mock).connect()
        await time.waitForSleepers(1)
        time.advance(by: 30)
        var received: [WebSocketMessage] = []
        for try await message in connection.messages { received.append(message) }
        #expect(received == [.text("tick")])
        #expect(time.sleeps == [30])
    }

    @Test func reconnectsAfterADropWithBackoffAndResubscribes() async throws {
        let time = TestClock()
        let mock = MockWebSocketServer(handshakes: [.accept(), .fail(.cannotConnectToHost), .accept()]) { peer in
            if peer.connection == 0 {
                try await peer.send("before")
                peer.drop()
            } else {
                while let message = await peer.receive() { try await peer.send(.text("after \(message.data.count)")) }
            }
        }
        var call = call(mock)
        call.reconnection = ReconnectionPolicy(delay: 1, jitter: 0, clock: time.clock)
        call.resubscribe = { connection in try await connection.send("sub") }
        let connection = try await call.connect()
        let reading = Task {
            var received: [WebSocketMessage] = []
            for try await message in connection.messages {
                received.append(message)
                if received.count == 2 { break }
            }
            return received
        }
        await time.waitForSleepers(1)
        time.advance(by: 1)      // the connection delivered a message: the reconnection time exactly
        await time.waitForSleepers(1)
        time.advance(by: 2)      // the refused handshake failed once: backed off
        #expect(try await reading.value == [.text("before"), .text("after 3")])
        #expect(time.sleeps == [1, 2])
        #expect(mock.log.handshakes.count == 3)
        #expect(mock.log.entries.first == MockWebSocketLog.Entry(connection: 2, event: .message(.text("sub"))))
    }

    @Test func afterMaximumFailuresInARowTheLoopThrowsTheLastError() async throws {
        let time = TestClock()
        let mock = MockWebSocketServer(handshakes: [.accept(), .fail(.cannotConnectToHost)]) { peer in peer.drop() }
        var call = call(mock)
        call.reconnection = ReconnectionPolicy(delay: 1, jitter: 0, maximumFailures: 1, clock: time.clock)
        let connection = try await call.connect()
        let reading = Task {
            for try await _ in connection.messages {}
        }
        await time.waitForSleepers(1)
        time.advance(by: 2)          // the drop without a message was the first failure: backed off
        await #expect {
            try await reading.value
        } throws: { error in
            guard case .transport(let urlError) = error as? NetworkError else { return false }
            return urlError.code == .cannotConnectToHost
        }
        #expect(time.sleeps == [2])
        #expect(mock.log.handshakes.count == 2)
    }

    @Test func withoutReconnectionAGoingAwayCloseEndsTheLoop() async throws {
        let mock = MockWebSocketServer { peer in await peer.close(.goingAway) }
        let connection = try await call(mock).connect()
        for try await _ in connection.messages {}
        #expect(connection.peerClose?.code == .goingAway)
        #expect(mock.log.handshakes.count == 1)
    }

    @Test func aNonGETEndpointOrAnHTTPOnlySchemeIsAnInvalidRequest() async throws {
        var post = call(.echo)
        post.endpoint = .post("/feed")
        await #expect(throws: NetworkError.self) { _ = try await post.connect() }
        var ftp = call(.echo)
        ftp.server.scheme = "ftp"
        await #expect {
            _ = try await ftp.connect()
        } throws: { error in
            guard case .invalidRequest(let problem) = error as? NetworkError else { return false }
            return problem.part == .scheme
        }
    }

    @Test func anActionThatThrowsRefusesTheHandshake() async throws {
        struct Refusing: NetworkAction {
            func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest { throw URLError(.userAuthenticationRequired) }
        }
        let mock = MockWebSocketServer { _ in }
        var call = call(mock)
        call.actions = [Refusing()]
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .refusedByAction = error as? NetworkError else { return false }
            return true
        }
        #expect(mock.log.handshakes.isEmpty)
    }

    #if !canImport(Darwin)
    @Test func thePlatformTransportOnLinuxSaysToUseTheTransportPackage() async throws {
        let call = WebSocketCall(server: server, endpoint: .get("/feed"))
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .incompleteSetup = error as? NetworkError else { return false }
            return "\(error)".contains("SalvoWebSocket") && "\(error)".contains("wss://feed.example.com/v1/feed")
        }
    }
    #endif
}
