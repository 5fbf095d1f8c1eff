import Foundation
import SalvoWorkloads

extension Comparisons {
    /// The names of the WebSocket rows (issue 40), known before their connections open.
    static let webSocketNames = [webSocketEchoName, webSocketThroughputName]

    static let webSocketEchoName = "ws1 WebSocket echo round trip, 1 KiB text"
    static let webSocketThroughputName = "ws2 WebSocket throughput, 1 MiB binary, 4 in flight"

    /// 1 MiB messages per batch of ws2 (each way).
    static let webSocketThroughputMessages = 64

    /// Benchmarks ws1 (round trips of a 1 KiB text message, `requests` per batch) and ws2 (1 MiB
    /// binary messages echoed with 4 in flight, 64 per batch), each Salvo's `WebSocketCall` over
    /// `.webSocketClient()` against the raw `WSClient` under it, the same echo server for both;
    /// target ≤ 1.10× wall time. Returns the rows and the echoes, to close at the end.
    static func webSocket(baseURL: URL, requests: Int) async throws -> ([Comparison], [WebSocketEcho]) {
        let echo = try await WebSocketEcho(baseURL: baseURL, messageBytes: 1 << 10, isBinary: false, window: 1)
        let throughput = try await WebSocketEcho(baseURL: baseURL, messageBytes: 1 << 20, isBinary: true, window: 4)
        let messages = webSocketThroughputMessages
        let rows = [
            Comparison(
                name: webSocketEchoName, baselineName: "raw WSClient, same peer",
                target: .ratio(atMost: 1.10), judged: .wallClock, operationsPerBatch: requests,
                salvo: { try await echo.salvo(count: requests) },
                baseline: { try await echo.raw(count: requests) }
            ),
            Comparison(
                name: webSocketThroughputName, baselineName: "raw WSClient, same peer",
                target: .ratio(atMost: 1.10), judged: .wallClock, operationsPerBatch: messages,
                salvo: { try await throughput.salvo(count: messages) },
                baseline: { try await throughput.raw(count: messages) }
            ),
        ]
        return (rows, [echo, throughput])
    }
}
