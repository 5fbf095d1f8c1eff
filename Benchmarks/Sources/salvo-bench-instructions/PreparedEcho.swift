import Foundation
import SalvoWorkloads

/// A WebSocket echo of rows ws1 and ws2, its two connections opened by `prepare` before the
/// counters are zeroed (so the driver, which only lists the workloads, opens none).
final class PreparedEcho: @unchecked Sendable {
    private let baseURL: URL
    private let messageBytes: Int
    private let isBinary: Bool
    private let window: Int
    // Safe: `echo` is only touched under `lock`.
    private let lock = NSLock()
    private var echo: WebSocketEcho?

    init(baseURL: URL, messageBytes: Int, isBinary: Bool, window: Int) {
        self.baseURL = baseURL
        self.messageBytes = messageBytes
        self.isBinary = isBinary
        self.window = window
    }

    /// Opens both connections, once.
    func prepare(_: Int) throws {
        guard lock.withLock({ echo }) == nil else { return }
        try blocking {
            let opened = try await WebSocketEcho(baseURL: self.baseURL, messageBytes: self.messageBytes, isBinary: self.isBinary, window: self.window)
            self.lock.withLock { self.echo = opened }
        }
    }

    /// Runs `side` with the open echo.
    func run(_ side: @escaping @Sendable (WebSocketEcho) async throws -> Void) throws {
        guard let echo = lock.withLock({ echo }) else { throw WorkloadError("no WebSocket echo prepared") }
        try blocking { try await side(echo) }
    }
}
