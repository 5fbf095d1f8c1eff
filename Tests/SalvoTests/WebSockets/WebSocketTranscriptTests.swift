import Foundation
import Testing
import Salvo
import SalvoTesting

/// Recording a WebSocket conversation and replaying it offline.
@Suite struct WebSocketTranscriptTests {
    private let server = ServerConfig(scheme: "wss", host: "feed.example.com")

    @Test func aRecordedConversationReplaysOfflineWithTheURLRedacted() async throws {
        let live = MockWebSocketServer { peer in
            try await peer.send("welcome")
            while let message = await peer.receive() {
                if message == .text("bye") { break }
                try await peer.send(.text("echo"))
                try await peer.send(.binary(Data([7])))
            }
            await peer.close(.goingAway, reason: "later")
        }
        let recorder = WebSocketRecorder()
        var call = WebSocketCall(server: server, endpoint: .get("/feed", query: ["token": "s3cret"]))
        call.transport = .recording(through: .mock(live), into: recorder)
        let recording = try await call.connect()
        var recorded: [WebSocketMessage] = []
        for try await message in recording.messages {
            recorded.append(message)
            if recorded.count == 1 { try await recording.send("hi") }
            if recorded.count == 3 { try await recording.send("bye") }
        }

        let saved = try JSONEncoder().encode(recorder.transcript)
        #expect(!String(decoding: saved, as: UTF8.self).contains("s3cret"))
        let transcript = try JSONDecoder().decode(WebSocketTranscript.self, from: saved)
        #expect(transcript.events == [
            .receivedText("welcome"), .sentText("hi"), .receivedText("echo"), .receivedBinary(Data([7])),
            .sentText("bye"), .closed(code: 1001, reason: "later"),
        ])

        let replay = MockWebSocketServer.replaying(transcript)
        call.transport = .mock(replay)
        let replaying = try await call.connect()
        var replayed: [WebSocketMessage] = []
        for try await message in replaying.messages {
            replayed.append(message)
            if replayed.count == 1 { try await replaying.send("hi") }
            if replayed.count == 3 { try await replaying.send("bye") }
        }
        #expect(replayed == recorded)
        #expect(replaying.peerClose == WebSocketClose(.goingAway, reason: "later"))
        #expect(replay.log.sentMessages == [.text("hi"), .text("bye")])
    }
}
