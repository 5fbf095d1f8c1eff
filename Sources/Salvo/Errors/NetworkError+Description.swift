import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkError: LocalizedError {
    /// A sentence that says what went wrong and, where it can, what to do about it.
    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let problem):
            return "The request was not sent because its \(problem.part.rawValue) is invalid: \(problem.reason)."
        case .transport(let error):
            return "The request failed before a complete response arrived (\(Self.describe(error.code))): \(error.localizedDescription)"
        case .serverStatus(let failure):
            let url = failure.url?.absoluteString ?? "the server"
            let body = Self.preview(failure.body).map { " Body: \($0)" } ?? ""
            return "\(url) answered with status \(failure.statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: failure.statusCode))).\(body)"
        case .decoding(let failure):
            let body = Self.preview(failure.body) ?? "<empty>"
            return "The response could not be decoded as \(failure.typeName): \(failure.underlying). Body: \(body)"
        case .unacceptableResponse(let problem):
            let underlying = problem.underlying.map { " (\(Self.describe($0)))" } ?? ""
            return problem.description + underlying
        case .cancelled:
            return "The request was cancelled."
        }
    }

    private static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .timedOut: return "timed out"
        case .notConnectedToInternet: return "offline"
        case .cannotConnectToHost: return "could not connect to the host"
        case .cannotFindHost: return "host not found"
        case .networkConnectionLost: return "connection lost"
        default: return "URL error \(code.rawValue)"
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? NetworkError)?.description ?? (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }

    /// The first 200 characters of a UTF-8 body, or nil when there is nothing readable.
    private static func preview(_ body: Data?) -> String? {
        guard let body, !body.isEmpty else { return nil }
        guard let text = String(data: body.prefix(200), encoding: .utf8) else { return "<\(body.count) bytes>" }
        return body.count > 200 ? text + "…" : text
    }
}

extension NetworkError: CustomStringConvertible {
    /// The same sentence as `localizedDescription`.
    public var description: String { errorDescription ?? "NetworkError" }
}
