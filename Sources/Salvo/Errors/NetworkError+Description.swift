import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkError: CustomStringConvertible {
    /// For the developer: one or two sentences that say what went wrong, naming the URL, the
    /// status and the body, and, where they can, what to do about it. `print`, string
    /// interpolation, `String(describing:)`, `String(reflecting:)`, `debugPrint` and Swift
    /// Testing's "Caught error:" show it; the person using the app gets ``userMessage``, which is
    /// also the `localizedDescription`.
    ///
    /// URLs and quoted bodies are shown with ``Redaction/default`` applied (secret query items,
    /// and JSON, form and multipart fields such as `access_token` or `password`), so a message
    /// can be logged.
    public var description: String {
        switch self {
        case .invalidRequest(let problem):
            return Self.sentence("The request was not sent because its \(problem.part.rawValue) is invalid: \(problem.reason)")
        case .refusedByAction(let error):
            return Self.sentence("The request was not sent because an action refused it: \(Self.describe(error))")
        case .incompleteSetup(let problem):
            return Self.sentence("The request could not be answered because the \(problem.part.rawValue) setup is incomplete: \(problem.reason)")
        case .transport(let error):
            return Self.describe(error)
        case .serverStatus(let problem):
            let url = Self.shown(problem.url) ?? "The server"
            let code = problem.statusCode ?? 0
            let status = "\(url) answered with status \(code) (\(HTTPURLResponse.localizedString(forStatusCode: code)))."
            return status + (BodyPreview.message(problem.body, contentType: problem.headers["Content-Type"]).map { " Body: \($0)" } ?? "")
        case .decoding(let failure) where failure.body.isEmpty:
            return "The response has no body, so it could not be decoded as \(failure.typeName); decode an optional "
                + "(\(failure.typeName)?) if the body may be empty, or use response() (Void in a typed call) if the endpoint returns nothing."
        case .decoding(let failure):
            let reason = (failure.underlying as? DecodingError)?.plainReason ?? Self.describe(failure.underlying)
            return Self.sentence("The response could not be decoded as \(failure.typeName): \(reason)") + " Body: \(BodyPreview.message(failure.body, contentType: nil) ?? "<empty>")"
        case .unacceptableResponse(let problem):
            return Self.sentence(problem.description) + (problem.underlying.map { " Cause: " + Self.sentence(Self.describe($0)) } ?? "")
        case .cancelled:
            return "The request was cancelled."
        }
    }

    /// A transport failure as a sentence naming the URL and what to check.
    private static func describe(_ error: URLError) -> String {
        let target = shown(error.failingURL) ?? "the server"
        let server = shown(error.failingURL).map { "The server at \($0)" } ?? "The server"
        let host = error.failingURL.flatMap { url in url.host.map { name in url.port.map { "\(name):\($0)" } ?? name } } ?? "the server's host"
        if let status = error.receivedStatusCode {
            switch error.code {
            case .timedOut:
                return "The response from \(target) stalled: its head arrived with status \(status), then its body stopped "
                    + "before the timeout; check the server, or raise the endpoint's timeout if it sends its body slowly."
            case .networkConnectionLost:
                return "The connection to \(target) was lost after the server answered with status \(status), "
                    + "before the body was complete; try again."
            default:
                break
            }
        }
        if error.isClosedWithoutAnswer {
            return "\(server) closed the connection without answering; check that the server is running well, and try again."
        }
        switch error.code {
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return "The device is offline, so \(target) could not be reached; check the network connection and try again."
        case .cannotConnectToHost:
            return "Could not connect to \(host) to request \(target); check that the server is running and that the host and port are right."
        case .timedOut:
            // No head is known: none came, or the transport did not hand it over (URLSession on
            // Linux does not, when a whole-body call's body stalls), so the answer may have begun.
            return "The request to \(target) timed out: no answer, or no more of it, arrived within the timeout; "
                + "try again, or raise the endpoint's timeout if the server is slow."
        case .cannotFindHost, .dnsLookupFailed:
            return "The host \(host) could not be found; check the server's host name and the network's DNS."
        case .networkConnectionLost:
            return "The connection to \(target) was lost before the response was complete; try again."
        case .cancelled:
            return "The request to \(target) was cancelled."
        case let code where secureConnectionCodes.contains(code):
            return "A secure (TLS) connection to \(host) could not be made; check the server's certificate and the device's clock."
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return "\(server) redirected too many times or to nowhere; check the server's redirects."
        case .badServerResponse, .cannotParseResponse:
            return "\(server) sent a response that is not valid HTTP; check the server."
        case .badURL, .unsupportedURL:
            return "The session cannot request \(target); check the server's scheme and host."
        case .userAuthenticationRequired, .userCancelledAuthentication:
            return "\(server) asked for credentials the session could not supply; add them with an auth action."
        case .cannotDecodeContentData, .cannotDecodeRawData:
            return "The response from \(target) could not be read (its encoding or compression is broken); check the server."
        case .dataLengthExceedsMaximum, .resourceUnavailable, .zeroByteResource:
            return "The response from \(target) could not be delivered (URL error \(error.code.rawValue)); check the request's method, body and size."
        default:
            if let reason = error.userInfo[NSLocalizedDescriptionKey] as? String, !reason.contains("NSURLErrorDomain") {
                return sentence("The request to \(target) failed: \(reason)")
            }
            return "The request to \(target) failed before a complete response arrived (URL error \(error.code.rawValue))."
        }
    }

    /// URL error codes that mean a secure (TLS) connection could not be made.
    static let secureConnectionCodes: Set<URLError.Code> = [
        .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
        .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired,
    ]

    private static func describe(_ error: any Error) -> String {
        if let error = error as? NetworkError { return error.description }
        if let carrier = error as? any NetworkErrorCarrier { return carrier.networkError.description }
        return (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }

    /// `url` as a message may show it: secret query items hidden.
    private static func shown(_ url: URL?) -> String? {
        url.map { Redaction.default.redact($0).absoluteString }
    }

    /// `text` ending in exactly one full stop (or its own `?` or `!`).
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var end = trimmed.endIndex
        while end > trimmed.startIndex, trimmed[trimmed.index(before: end)] == "." { end = trimmed.index(before: end) }
        let body = trimmed[..<end]
        if let last = body.last, last == "?" || last == "!" { return String(body) }
        return body + "."
    }

}

/// What a `DecodingError` means, in a phrase a person can act on.
extension DecodingError {
    /// What is wrong and where, e.g. `"user.id" should be a number` or `missing "items"`;
    /// no trailing period, so it can end a sentence.
    package var plainReason: String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : "\"" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "\""
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(Self.name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null but should be \(Self.name(of: type))"
        case .dataCorrupted(let context):
            let detail = context.debugDescription.trimmingCharacters(in: .whitespaces)
            let phrase = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
            return context.codingPath.isEmpty ? phrase : "\(path(context.codingPath)): \(phrase)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type, is Float.Type, is Int64.Type, is UInt.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [String: String].Type: return "an object of strings"
        default: return "\(type)"
        }
    }
}
