#if canImport(Darwin)
import Foundation

// The only Apple-only lines of WebSocket support: URLSessionWebSocketTask as a transport.
// Not compiled on Linux (FoundationNetworking has no WebSockets), so kept to the least code.
extension WebSocketTransport {
    /// Connections through `URLSessionWebSocketTask`, the default on Apple platforms.
    ///
    /// - Parameter session: the session that makes the tasks.
    /// - Returns: the transport.
    public static func urlSession(_ session: URLSession = .shared) -> WebSocketTransport {
        WebSocketTransport(name: "URLSessionWebSocketTask") { handshake in
            let task = session.webSocketTask(with: handshake.request)
            task.maximumMessageSize = handshake.maximumMessageSize
            let (inbound, frames) = AsyncThrowingStream<WebSocketFrame, any Error>.makeStream()
            frames.onTermination = { _ in task.cancel(with: .normalClosure, reason: nil) }
            task.resume()
            Task {
                while true {
                    do {
                        switch try await task.receive() {
                        case .string(let text): frames.yield(.message(.text(text)))
                        case .data(let data): frames.yield(.message(.binary(data)))
                        @unknown default: continue
                        }
                    } catch {
                        if task.closeCode != .invalid {
                            let code = WebSocketClose.Code(rawValue: UInt16(clamping: task.closeCode.rawValue))
                            frames.yield(.close(WebSocketClose(code, reason: task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? "")))
                            frames.finish()
                        } else if let response = task.response as? HTTPURLResponse, response.statusCode != 101 {
                            frames.finish(throwing: WebSocketFailure.handshakeRefused(statusCode: response.statusCode, headers: HTTPHeaders(response), body: nil))
                        } else if (error as NSError).domain == NSPOSIXErrorDomain, (error as NSError).code == Int(EMSGSIZE) {
                            // The task closed with 1009 itself: past maximumMessageSize it fails with EMSGSIZE.
                            frames.finish(throwing: WebSocketFailure.messageTooBig(limit: handshake.maximumMessageSize))
                        } else {
                            frames.finish(throwing: error)
                        }
                        return
                    }
                }
            }
            // The task opens in the background: its chosen subprotocol is not known yet, so none is reported.
            return WebSocketChannel(inbound: inbound) { frame in
                switch frame {
                case .message(.text(let text)): try await task.send(.string(text))
                case .message(.binary(let data)): try await task.send(.data(data))
                case .ping:
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        task.sendPing { error in error.map { continuation.resume(throwing: $0) } ?? continuation.resume() }
                    }
                case .pong: break
                case .close(let close):
                    // CloseCode has cases for the codes RFC 6455 defines only: an app's own (4000–4999) goes as 1000.
                    let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(close.code.rawValue)) ?? .normalClosure
                    task.cancel(with: code, reason: Data(close.reason.utf8))
                }
            }
        }
    }
}
#endif
