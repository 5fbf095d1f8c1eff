import Foundation
@_spi(Transport) import Salvo

/// One handler call a responder received, as a value a test can compare.
///
/// Errors compare by kind (case, status, URL error code, request part), not by message, so an
/// expectation reads `.error(.cancelled)` or `.serverError(status: 500)`.
///
/// ```swift
/// #expect(await call.fireAndRecord() == [.task, .response, .httpResponse(status: 200), .data(body)])
/// ```
public enum ResponderEvent: Sendable, Equatable, CustomStringConvertible {
    /// `taskHandler` ran.
    case task
    /// `responseHandler` ran with a response.
    case response
    /// `responseHandler` ran with `nil`: no response arrived.
    case noResponse
    /// `httpResponseHandler` ran with this status.
    case httpResponse(status: Int)
    /// `dataHandler` ran with this body.
    case data(Data)
    /// `errorHandler` ran with this error.
    case error(NetworkError)
    /// `serverErrorHandler` ran for this status.
    case serverError(status: Int)
    /// `errorDataHandler` ran with this body.
    case errorData(Data?)

    /// Whether no further handler can follow this one in the same firing.
    func isTerminal(after previous: ResponderEvent?) -> Bool {
        switch self {
        case .data, .serverError: return true
        case .errorData:
            if case .error = previous { return true }
            return false
        default: return false
        }
    }

    /// A short description such as `httpResponse(500)` or `error(transport -1009)`.
    public var description: String {
        switch self {
        case .task: return "task"
        case .response: return "response"
        case .noResponse: return "noResponse"
        case .httpResponse(let status): return "httpResponse(\(status))"
        case .data(let data): return "data(\(Self.preview(data)))"
        case .error(let error): return "error(\(Self.kind(of: error)))"
        case .serverError(let status): return "serverError(\(status))"
        case .errorData(let data): return "errorData(\(data.map(Self.preview) ?? "nil"))"
        }
    }

    /// Equal when the same handler ran with the same status, body or kind of error.
    public static func == (lhs: ResponderEvent, rhs: ResponderEvent) -> Bool {
        switch (lhs, rhs) {
        case (.error(let left), .error(let right)): return kind(of: left) == kind(of: right)
        default: return lhs.description == rhs.description && sameBody(lhs, rhs)
        }
    }

    private static func sameBody(_ lhs: ResponderEvent, _ rhs: ResponderEvent) -> Bool {
        switch (lhs, rhs) {
        case (.data(let left), .data(let right)): return left == right
        case (.errorData(let left), .errorData(let right)): return left == right
        default: return true
        }
    }

    private static func kind(of error: NetworkError) -> String {
        switch error {
        case .invalidRequest(let problem): return "invalidRequest \(problem.part.rawValue)"
        case .refusedByAction(let error): return "refusedByAction \(type(of: error))"
        case .incompleteSetup(let problem): return "incompleteSetup \(problem.part.rawValue)"
        case .transport(let urlError): return "transport \(urlError.code.rawValue)"
        case .serverStatus(let problem): return "serverStatus \(problem.statusCode.map(String.init) ?? "-")"
        case .decoding(let failure): return "decoding \(failure.typeName)"
        case .unacceptableResponse(let problem): return "unacceptableResponse \(problem.statusCode.map(String.init) ?? "-")"
        case .cancelled: return "cancelled"
        }
    }

    private static func preview(_ data: Data) -> String {
        guard data.count <= 40, let text = String(data: data, encoding: .utf8) else { return "\(data.count) bytes" }
        return "\"\(text)\""
    }
}
