import Foundation

extension NetworkError: LocalizedError {
    /// For the person using the app: ``userMessage``, one short sentence with no URL, status line
    /// or body, as for ``APIError``. The developer's sentence, for logs, is ``description``.
    public var errorDescription: String? { userMessage }
}

extension NetworkError {
    /// A short sentence for the person using the app: what happened, in plain words, with no URL,
    /// status line or body. It is the `localizedDescription` of both `NetworkError` and
    /// ``APIError``; the full developer description, for logs, is ``description``.
    ///
    /// ```swift
    /// catch let error as NetworkError {
    ///     logger.error("\(error)")            // the URL, the status, the body (redacted)
    ///     alert = error.userMessage           // "The server had a problem. Please try again later."
    /// }
    /// ```
    public var userMessage: String {
        switch self {
        case .invalidRequest, .refusedByAction, .incompleteSetup:
            return "The request could not be sent. Please try again later."
        case .transport(let error):
            return Self.userMessage(for: error.code)
        case .serverStatus(let problem):
            return Self.userMessage(forStatus: problem.statusCode ?? 0)
        case .decoding:
            return "The server's response could not be read. Please try again later."
        case .unacceptableResponse(let problem) where problem.isRenewalFailure:
            return "Your session has expired. Please sign in again."
        case .unacceptableResponse:
            return "The server's response could not be used. Please try again later."
        case .cancelled:
            return "The request was cancelled."
        }
    }

    private static func userMessage(for code: URLError.Code) -> String {
        switch code {
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return "You appear to be offline. Check your connection and try again."
        case .timedOut:
            return "The server took too long to respond. Please try again."
        case .networkConnectionLost:
            return "The connection was lost. Please try again."
        case let code where secureConnectionCodes.contains(code):
            return "A secure connection to the server could not be made. Check the device's date and time, then try again."
        case .cancelled:
            return "The request was cancelled."
        default:
            return "The server could not be reached. Please try again later."
        }
    }

    private static func userMessage(forStatus status: Int) -> String {
        switch status {
        case 401: return "Please sign in again."
        case 403: return "You don't have permission to do this."
        case 404, 410: return "This item could not be found. It may have been deleted."
        case 408, 429, 503: return "The server is busy. Please try again in a moment."
        case 400..<500: return "The server could not accept this request."
        default: return "The server had a problem. Please try again later."
        }
    }
}
