import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WebSocketCall {
    /// A transport's error as the `NetworkError` the app sees, naming the URL.
    static func networkError(_ error: any Error, url: URL) -> NetworkError {
        guard let failure = error as? WebSocketFailure else { return NetworkError(error, requestURL: url) }
        let address = Redaction.default.redact(url).absoluteString
        switch failure {
        case .handshakeRefused(let statusCode, let headers, let body):
            return .serverStatus(ResponseProblem(statusCode: statusCode, url: url, body: body, headers: headers))
        case .messageTooBig(let limit):
            return .unacceptableResponse(ResponseProblem(
                "a WebSocket message was larger than maximumMessageSize (\(limit) bytes), so the connection was closed with 1009 (message too big); raise the call's maximumMessageSize if such messages are expected",
                url: url
            ))
        case .invalidUTF8:
            return .unacceptableResponse(ResponseProblem(
                "a WebSocket text message was not valid UTF-8, so the connection was closed with 1007 (invalid frame payload data)",
                url: url
            ))
        case .protocolError(let detail):
            return .unacceptableResponse(ResponseProblem(
                "the WebSocket peer broke the protocol (\(detail)), so the connection was closed with 1002 (protocol error)",
                url: url
            ))
        case .connectionLost(let detail):
            return .transport(URLError(.networkConnectionLost, userInfo: [
                NSURLErrorFailingURLErrorKey: url,
                NSLocalizedDescriptionKey: "the WebSocket connection to \(address) was lost without a close frame: \(detail)",
            ]))
        }
    }
}
