import Salvo
import SalvoWebSocket
import Testing

// The Linux code in Docs/WebSockets.md, kept here so it cannot rot.

@Suite struct WebSocketsLinuxSamples {
    @Test func choosingTheLinuxTransport() {
        var feed = WebSocketCall(server: ServerConfig(scheme: "wss", host: "api.example.com"), endpoint: .get("/feed"))
        feed.transport = .webSocketClient()          // offers permessage-deflate
        feed.transport = .webSocketClient(compression: .none)
        #expect(feed.endpoint.method == .get)
    }
}
