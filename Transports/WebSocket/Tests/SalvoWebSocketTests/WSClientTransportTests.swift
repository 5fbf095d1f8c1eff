import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo
import SalvoWebSocket
import Testing

/// The Python `websockets` server the suites talk to, started once.
enum WebSocketsServer {
    static let shared = SharedServer {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let package = here.deletingLastPathComponent().deletingLastPathComponent()
        let python = ProcessInfo.processInfo.environment["SALVO_WEBSOCKETS_PYTHON"]
            ?? package.appendingPathComponent(".build-ws-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestServerError("no Python with `websockets` at \(python): run `python3 -m venv \(package.path)/.build-ws-venv && \(package.path)/.build-ws-venv/bin/pip install websockets`, or set SALVO_WEBSOCKETS_PYTHON")
        }
        return try await ServerProcess.launch(
            name: "websocket_server.py",
            executable: URL(fileURLWithPath: python),
            arguments: [here.appendingPathComponent("Servers/websocket_server.py").path]
        )
    }
}

/// SalvoWebSocket's transport against a third-party server (Python's `websockets`) on loopback.
@Suite(.serialized) struct WSClientTransportTests {
    private func call(_ path: EndpointPath, maximumMessageSize: Int = 1 << 20, compression: WebSocketCompression = .permessageDeflate()) async throws -> WebSocketCall {
        let server = try await WebSocketsServer.shared.running()
        var call = WebSocketCall(
            server: ServerConfig(scheme: "ws", host: "127.0.0.1", port: server.port),
            endpoint: .get(path),
            maximumMessageSize: maximumMessageSize
        )
        call.transport = .webSocketClient(compression: compression)
        return call
    }

    /// Connects and returns the first message the server sends.
    private func firstMessage(of call: WebSocketCall) async throws -> WebSocketMessage? {
        let connection = try await call.connect()
        for try await message in connection.messages {
            return message
        }
        return nil
    }

    private func lastCloseCode() async throws -> String {
        try await firstText(of: "/last-close")
    }

    /// The close code the server last received, once it is `expected` (the server records it when
    /// the closing handshake is over, which may be after the client's loop ended), or the last read.
    private func lastCloseCode(becoming expected: String) async throws -> String {
        var code = try await lastCloseCode()
        for _ in 0..<50 where code != expected {
            try await Task.sleep(nanoseconds: 100_000_000)
            code = try await lastCloseCode()
        }
        return code
    }

    @Test func echoesTextBinaryAndTypedJSON() async throws {
        struct Note: Codable, Equatable { var text: String }
        let connection = try await call("/echo").connect()
        try await connection.send("hello")
        try await connection.send(Data([0, 1, 2, 255]))
        try await connection.send(Note(text: "typed"))
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 3 { break }
        }
        #expect(received == [.text("hello"), .binary(Data([0, 1, 2, 255])), .text(#"{"text":"typed"}"#)])
    }

    @Test func handshakeCarriesTheActionsToken() async throws {
        var call = try await call("/headers")
        call.server.requiresAuthentication = true
        call.actions = [AuthTokenAction { "t0k3n" }]
        #expect(try await firstMessage(of: call) == .text("Bearer t0k3n"))
    }

    @Test func aTokenPinnedToTheWSServerPassesTheRouteThatRefusesOthersWith401() async throws {
        var call = try await call("/auth")
        call.server.requiresAuthentication = true
        call.actions = [AuthTokenAction(for: call.server) { "fresh" }]
        #expect(try await firstMessage(of: call) == .text("Bearer fresh"))
    }

    /// The server answers the stale token's handshake with 401 (no upgrade), then the renewed
    /// token's with 101: the refusal's status reaches the actions, so the renewal runs once and
    /// the handshake goes again with the new token.
    @Test func a401OnTheHandshakeRenewsTheTokenAndTheHandshakeGoesAgain() async throws {
        let tokens = Tokens()
        var call = try await call("/auth")
        call.server.requiresAuthentication = true
        call.actions = [TokenRenewalAction { await tokens.renew() }, AuthTokenAction { await tokens.read() }]
        #expect(try await firstMessage(of: call) == .text("Bearer fresh"))
        #expect(await tokens.renewals == 1)
        #expect(await tokens.reads == ["stale", "fresh"])
    }

    @Test func aHandshakeRefusedWith401IsServerStatusWithItsBodyNamingTheURL() async throws {
        var call = try await call("/auth")
        call.server.requiresAuthentication = true
        call.actions = [AuthTokenAction { "stale" }]
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .serverStatus(let problem) = error as? NetworkError else { return false }
            return problem.statusCode == 401 && problem.body == Data("token expired\n".utf8) && "\(error)".contains("/auth")
        }
    }

    @Test func aRetryActionRetriesAHandshakeRefusedWith503() async throws {
        var call = try await call("/busy-once")
        call.actions = [RetryAction(maxAttempts: 2, baseDelay: 0, jitter: 0)]
        #expect(try await firstMessage(of: call) == .text("none"))
    }

    /// A refusal's body is kept up to 64 KiB; the handshake ends there instead of reading the rest.
    @Test func aRefusalsBodyIsKeptUpTo64KiB() async throws {
        let call = try await call("/refuse-big")
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .serverStatus(let problem) = error as? NetworkError else { return false }
            return problem.statusCode == 503 && problem.body == Data(repeating: UInt8(ascii: "z"), count: 1 << 16)
        }
    }

    @Test func serverInitiatedCloseEndsTheLoopWithItsCodeAndReason() async throws {
        let connection = try await call("/close").connect()
        for try await _ in connection.messages {}
        #expect(connection.peerClose == WebSocketClose(WebSocketClose.Code(rawValue: 4001), reason: "bye"))
    }

    @Test func aCloseFrameFollowedByADroppedConnectionIsThePeersClose() async throws {
        let connection = try await call("/close-then-drop").connect()
        for try await _ in connection.messages {}
        #expect(connection.peerClose == WebSocketClose(WebSocketClose.Code(rawValue: 4002), reason: "gone"))
    }

    @Test func answersTheServersPingAndSendsItsOwn() async throws {
        let connection = try await call("/ping").connect()
        try await connection.ping(Data("client".utf8))
        var first: WebSocketMessage?
        for try await message in connection.messages {
            first = message
            break
        }
        #expect(first == .text("pong received"))
    }

    @Test func receivesA16MiBMessageSentInFragments() async throws {
        let connection = try await call("/big", maximumMessageSize: 16 << 20).connect()
        var size = 0
        for try await message in connection.messages {
            size = message.count
            break
        }
        #expect(size == 16 << 20)
    }

    @Test func receivesAThousandSmallMessagesInOrder() async throws {
        let connection = try await call("/many").connect()
        var received: [String] = []
        for try await message in connection.messages {
            if case .text(let text) = message { received.append(text) }
        }
        #expect(received == (0..<1000).map(String.init))
        #expect(connection.peerClose?.code == .normalClosure)
    }

    @Test func negotiatesPermessageDeflate() async throws {
        let connection = try await call("/deflate").connect()
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 2 { break }
        }
        #expect(received == [.text("permessage-deflate"), .text(String(repeating: "a", count: 100_000))])
    }

    /// Messages both ways go compressed: a 4 MiB compressible text message round-trips, and the
    /// bytes the server read off the socket are a small part of what was sent.
    @Test func permessageDeflateRoundTripsALargeCompressibleMessageCompressed() async throws {
        let large = String(repeating: #"{"symbol":"SALVO","price":42.5,"currency":"EUR"},"#, count: 4 << 20 / 48)
        let connection = try await call("/deflate-echo", maximumMessageSize: 8 << 20).connect()
        try await connection.send("small")
        try await connection.send(Data(repeating: 7, count: 300_000))
        try await connection.send(large)
        try await connection.send("wire?")
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 4 { break }
        }
        try #require(received.count == 4)
        #expect(received[0] == .text("small"))
        #expect(received[1] == .binary(Data(repeating: 7, count: 300_000)))
        #expect(received[2] == .text(large))
        let parts = String(decoding: received[3].data, as: UTF8.self).split(separator: " ")
        #expect(parts.last == "permessage-deflate")
        let bytes = try #require(parts.first.flatMap { Int($0) })
        #expect(bytes < large.utf8.count / 20, "the server read \(bytes) bytes for \(large.utf8.count + 300_000) sent")
    }

    @Test func withCompressionNoneNoExtensionIsNegotiated() async throws {
        let connection = try await call("/deflate-echo", compression: .none).connect()
        try await connection.send(String(repeating: "a", count: 10_000))
        try await connection.send("wire?")
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 2 { break }
        }
        #expect(received.first == .text(String(repeating: "a", count: 10_000)))
        try #require(received.count == 2)
        let wire = String(decoding: received[1].data, as: UTF8.self)
        #expect(wire.hasSuffix(" none"))
        #expect(Int(wire.split(separator: " ")[0]) ?? 0 > 10_000)
    }

    @Test func invalidUTF8InATextFrameClosesWith1007() async throws {
        let connection = try await call("/bad-utf8").connect()
        await #expect {
            for try await _ in connection.messages {}
        } throws: { error in
            "\(error)".contains("1007") && "\(error)".contains("127.0.0.1")
        }
        #expect(try await lastCloseCode(becoming: "1007") == "1007")
    }

    /// In one frame Salvo's check refuses it; in fragments whose sum passes the limit (each is
    /// within it) WSClient's own does. Both close with 1009 and name the limit.
    @Test(arguments: ["/oversize", "/oversize-fragments"] as [EndpointPath])
    func aMessageOverTheLimitClosesWith1009(path: EndpointPath) async throws {
        let connection = try await call(path, maximumMessageSize: 1024).connect()
        await #expect {
            for try await _ in connection.messages {}
        } throws: { error in
            guard case .unacceptableResponse = error as? NetworkError else { return false }
            return "\(error)".contains("maximumMessageSize (1024 bytes)") && "\(error)".contains("\(path)")
        }
        #expect(try await lastCloseCode(becoming: "1009") == "1009")
    }

    @Test func aPeerThatDropsTCPGivesAnErrorNamingTheURLAtOnce() async throws {
        let connection = try await call("/drop").connect()
        var received: [WebSocketMessage] = []
        let started = ContinuousClock.now
        await #expect {
            for try await message in connection.messages { received.append(message) }
        } throws: { error in
            guard case .transport = error as? NetworkError else { return false }
            return "\(error)".contains("ws://127.0.0.1:") && "\(error)".contains("/drop")
        }
        // At once: not after a timeout (WSClient's closing handshake waits up to 15 s); it takes
        // about the server's 50 ms here.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(received == [.text("one")])
    }

    @Test func cancellingAFiredTaskClosesWith1000() async throws {
        var call = try await call("/echo")
        let (opened, open) = AsyncStream<Void>.makeStream()
        call.callbackQueue = .immediate
        call.responder.opened = { _ in open.yield() }
        let task = call.fire()
        for await _ in opened { break }
        task.cancel()
        #expect(try await lastCloseCode(becoming: "1000") == "1000")
    }

    /// Backpressure: a peer sending as fast as it can and a reader that stopped. The connection
    /// stops reading once `maximumUnreadMessages` wait, so the server's sends block (it records how
    /// many went); without it the client read all 4,000 messages (64 MiB) into memory.
    @Test func aSlowReaderStopsTheConnectionReadingSoTheFastPeerWaits() async throws {
        var flood = try await call("/flood", compression: .none)   // "fff…" would deflate to nothing
        flood.maximumUnreadMessages = 4
        let connection = try await flood.connect()
        var iterator = connection.messages.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.count == 16 << 10)
        let outcome = try await firstText(of: "/flood-result")
        // What the kernel's socket buffers hold on loopback (a few MiB) plus the few messages Salvo
        // keeps: measured 'blocked after 254'-'blocked after 336' here; the bug sends all 4,000.
        let blocked = outcome.hasPrefix("blocked after ") ? Int(outcome.dropFirst("blocked after ".count)) : nil
        let sent = try #require(blocked, "the server sent everything: \(outcome)")
        #expect(sent < 1500, "the server's sends blocked after \(sent) messages")
        // Closing releases the bound, so the closing handshake is read (the server may have
        // broken its last frame when it gave up, hence no expectation on how it ends).
        await connection.close()
        while (try? await iterator.next()) != nil {}
    }

    /// WSClient's `run()` returns `nil` both for a close frame without a status code (1005 to the
    /// peer) and for a TCP connection closed without any close frame, so Salvo cannot tell them
    /// apart: a codeless close ends the loop as a lost connection. If WSClient learns to tell
    /// them apart, this fails and the codeless close should become a `peerClose` of 1005.
    @Test func aCloseWithoutAStatusCodeEndsTheLoopAsALostConnection() async throws {
        try await expectALostConnection(at: "/codeless-close")
    }

    /// A peer that closes TCP cleanly (FIN) without a close frame, once the connection is set up.
    @Test func aTCPCloseWithoutACloseFrameEndsTheLoopAsALostConnectionAtOnce() async throws {
        let started = ContinuousClock.now
        let received = try await expectALostConnection(at: "/fin-later")
        #expect(received == [.text("one")])
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    /// A peer that closes TCP (FIN) right behind the handshake's `101` and one message: the FIN
    /// often comes in the same read as the `101`, while NIO's upgrade is under way (the loop hung
    /// in 8 runs of 10, and once that was fixed, lost the message in 15 of 20, before
    /// `InputClosedHolder` and `InputClosedDeferrer`). The message arrives, then the loss.
    @Test(.timeLimit(.minutes(1)))
    func aTCPCloseWithTheHandshakesAnswerEndsTheLoopAsALostConnection() async throws {
        let received = try await expectALostConnection(at: "/fin")
        #expect(received == [.text("one")])
    }

    /// The loop over a route's messages ends with `transport` (`networkConnectionLost`) naming
    /// the route, and no peer's close. Returns the messages the loop read before.
    @discardableResult
    private func expectALostConnection(at path: EndpointPath) async throws -> [WebSocketMessage] {
        let connection = try await call(path).connect()
        var received: [WebSocketMessage] = []
        await #expect {
            for try await message in connection.messages { received.append(message) }
        } throws: { error in
            guard case .transport(let urlError) = error as? NetworkError else { return false }
            return urlError.code == .networkConnectionLost && "\(error)".contains("\(path)")
        }
        #expect(connection.peerClose == nil)
        return received
    }

    /// 1,000 connections opened, used and closed, one after another, leave no descriptor open
    /// and memory flat. `SALVO_WS_CONNECTION_ROUNDS` changes the count (1,000 unless set; the
    /// 1,000 took 6-16 s here, on 2 cores shared with other builds).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/statm")))
    func aThousandConnectionsOpenedAndClosedLeaveNoDescriptorOpenAndMemoryFlat() async throws {
        let rounds = ProcessInfo.processInfo.environment["SALVO_WS_CONNECTION_ROUNDS"].flatMap { Int($0) } ?? 1000
        let echo = try await call("/echo")
        var unanswered = 0
        func openUseAndClose() async throws {
            let connection = try await echo.connect()
            try await connection.send("ping")
            var answer: WebSocketMessage?
            for try await message in connection.messages {
                answer = message
                await connection.close()
            }
            if answer != .text("ping") { unanswered += 1 }
        }
        // Warm-up: the event loop's threads, NIO's and Foundation's caches, the allocator's pools.
        for _ in 0..<100 { try await openUseAndClose() }
        let descriptors = try await openDescriptors(atMost: nil)
        let memory = try residentBytes()
        for _ in 0..<rounds { try await openUseAndClose() }
        #expect(unanswered == 0)
        #expect(try await openDescriptors(atMost: descriptors) <= descriptors)
        // Measured: 280-372 KiB of growth over 1,000 connections after the warm-up. Keeping only
        // Salvo's closed WebSocketConnection objects alive (the smallest leak: no socket, no NIO
        // channel, no WSClient handler) measured 7.8 MiB over 1,000; the bound is between.
        let growth = try residentBytes() - memory
        #expect(growth < 4 << 20, "resident memory grew by \(growth >> 10) KiB over \(rounds) connections")
    }

    /// The number of open descriptors; with `limit`, waits (up to 5 s) for it to come down to it,
    /// as NIO closes a socket just after the closing handshake ends.
    private func openDescriptors(atMost limit: Int?) async throws -> Int {
        var count = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        guard let limit else { return count }
        for _ in 0..<100 where count > limit {
            try await Task.sleep(nanoseconds: 50_000_000)
            count = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        }
        return count
    }

    /// The process's resident memory, from /proc/self/statm.
    private func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let fields = statm.split(separator: " ")
        let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil, "unreadable /proc/self/statm: \(statm)")
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The first text message of a route.
    private func firstText(of path: EndpointPath) async throws -> String {
        let connection = try await call(path).connect()
        defer { Task { await connection.close() } }
        for try await message in connection.messages {
            if case .text(let text) = message { return text }
        }
        return "no answer"
    }

    @Test func cancellingTheReadingTaskClosesWith1000() async throws {
        let connection = try await call("/echo").connect()
        try await connection.send("wait")
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let reading = Task {
            for try await _ in connection.messages { arrival.yield() }
        }
        for await _ in arrived { break }
        reading.cancel()
        _ = await reading.result
        #expect(try await lastCloseCode(becoming: "1000") == "1000")
    }

    /// Once the loop has waited on an empty inbox it reads WSClient's messages itself (see
    /// `WebSocketInbox`): cancelling it in the middle of that read cancels NIO's read, which ends
    /// the inbound stream for good. The close must still be 1000, not WSClient's 1011 for an error.
    @Test func cancellingTheLoopWhileItReadsTheSocketItselfClosesWith1000() async throws {
        let connection = try await call("/echo").connect()
        let reading = Task {
            for try await _ in connection.messages {}
        }
        while !connection.inbox.isAppWaiting { await Task.yield() }
        try await connection.send("one")                        // handed to the waiting loop
        while connection.inbox.isReadByApp != true { await Task.yield() }
        reading.cancel()
        _ = await reading.result
        #expect(try await lastCloseCode(becoming: "1000") == "1000")
    }

    /// The query (a token to redact) must not change the route: the server once routed on the path
    /// with its query, closed `/echo?access_token=…` with 4004 at once, and the first send raced
    /// that close (`NIOAsyncWriterError.alreadyFinished` in 2 runs of 3).
    @Test func aLiveConversationRecordedReplaysOfflineWithoutItsToken() async throws {
        let recorder = WebSocketRecorder()
        var live = try await call("/echo")
        live.server.requiresAuthentication = true
        live.actions = [AuthTokenAction { "t0k3n" }]
        live.endpoint.query = [URLQueryItem(name: "access_token", value: "s3cret")]
        live.transport = .recording(through: .webSocketClient(), into: recorder)
        let connection = try await live.connect()
        try await connection.send("one")
        try await connection.send(Data([2]))
        var received: [WebSocketMessage] = []
        for try await message in connection.messages {
            received.append(message)
            if received.count == 2 { break }
        }
        #expect(received == [.text("one"), .binary(Data([2]))])
        let fixture = try JSONEncoder().encode(recorder.transcript)
        let text = String(decoding: fixture, as: UTF8.self)
        #expect(!text.contains("s3cret") && !text.contains("t0k3n"))

        var offline = live
        let replay = MockWebSocketServer.replaying(try JSONDecoder().decode(WebSocketTranscript.self, from: fixture))
        offline.transport = .mock(replay)
        let replaying = try await offline.connect()
        try await replaying.send("one")
        try await replaying.send(Data([2]))
        var replayed: [WebSocketMessage] = []
        for try await message in replaying.messages {
            replayed.append(message)
            if replayed.count == 2 { break }
        }
        #expect(replayed == received)
        #expect(replay.log.sentMessages == [.text("one"), .binary(Data([2]))])
    }

    @Test func anUnreachablePortFailsTheHandshakeNamingTheURL() async throws {
        var call = WebSocketCall(server: ServerConfig(scheme: "ws", host: "127.0.0.1", port: 1), endpoint: .get("/nothing"))
        call.transport = .webSocketClient()
        await #expect {
            _ = try await call.connect()
        } throws: { error in
            guard case .transport = error as? NetworkError else { return false }
            return "\(error)".contains("127.0.0.1:1")
        }
    }
}

/// The app's token: "stale" until renewed, then "fresh"; records each read and renewal.
private actor Tokens {
    private(set) var reads: [String] = []
    private(set) var renewals = 0
    private var current = "stale"

    func read() -> String {
        reads.append(current)
        return current
    }

    func renew() {
        renewals += 1
        current = "fresh"
    }

}
