import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
@_spi(Transport) import Salvo

/// AsyncHTTPClient's and SwiftNIO's errors as the `URLError` `URLSession` gives for the same
/// failure, so that ``Salvo/NetworkError`` maps them as it maps `URLSession`'s; a request Salvo
/// could not have built correctly becomes ``Salvo/NetworkError/invalidRequest(_:)``.
enum TransportError {
    /// The error a task's failure ends the exchange with, failing at `url`.
    static func map(_ error: any Error, url: URL?) -> any Error {
        switch error {
        case let error as NetworkError:
            return error
        case let error as URLError:
            return error
        case let error as HTTPClientError:
            return map(error, url: url)
        case let error as NIOConnectionError:
            let isDNSFailure = error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil)
            return urlError(isDNSFailure ? .cannotFindHost : .cannotConnectToHost, url: url, "\(error)")
        case let error as IOError:
            return urlError(code(forErrno: error.errnoCode), url: url, "\(error)")
        case let error as ChannelError:
            return map(error, url: url)
        case let error as HTTPParserError:
            // A body cut short by the server closing the connection surfaces as an EOF the parser did
            // not expect; anything else is bytes that are not HTTP, which is not a hang-up.
            return urlError(error == .invalidEOFState || error == .closedConnection ? .networkConnectionLost : .cannotParseResponse, url: url, "\(error)")
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            return urlError(.cannotDecodeContentData, url: url, "the response body could not be decompressed: \(error)")
        case is NIOSSLError, is NIOSSLExtraError:
            return urlError(.secureConnectionFailed, url: url, "\(error)")
        case let error as BodyUploadError:
            return error.problem
        default:
            return urlError(.unknown, url: url, "\(error)")
        }
    }

    /// The error of a call made after the session's client was shut down.
    static func shutDown(at url: URL?) -> URLError {
        urlError(.unknown, url: url, "the HTTPClient of this AsyncHTTPClientSession has been shut down; fire through a session whose client is running")
    }

    /// The error of a redirect the client followed itself, with its own rules rather than Salvo's.
    static func clientFollowsRedirects(at url: URL?) -> URLError {
        urlError(.unknown, url: url, "the HTTPClient of this AsyncHTTPClientSession follows redirects itself, so Salvo cannot keep credentials on their origin or resend bodies as URLSession does; make the client with AsyncHTTPClientSession.clientConfiguration (redirectConfiguration: .disallow)")
    }

    private static func map(_ error: HTTPClientError, url: URL?) -> any Error {
        switch error {
        case .cancelled, .requestStreamCancelled:
            return urlError(.cancelled, url: url, "cancelled")
        case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout,
             .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return urlError(.timedOut, url: url, "The request timed out.")
        case .remoteConnectionClosed:
            return urlError(.networkConnectionLost, url: url, "the server closed the connection")
        case .alreadyShutdown:
            return shutDown(at: url)
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
            return urlError(.badURL, url: url, error.shortDescription)
        case .redirectLimitReached, .redirectCycleDetected:
            return urlError(.httpTooManyRedirects, url: url, error.shortDescription)
        case .proxyAuthenticationRequired:
            return urlError(.userAuthenticationRequired, url: url, error.shortDescription)
        case .invalidProxyResponse:
            return urlError(.cannotConnectToHost, url: url, error.shortDescription)
        case .uncleanShutdown:
            return urlError(.secureConnectionFailed, url: url, error.shortDescription)
        case .traceRequestWithBody:
            return NetworkError.invalidRequest(RequestProblem(.body, "a TRACE request cannot carry a body"))
        case .bodyLengthMismatch:
            return NetworkError.invalidRequest(RequestProblem(.body, "the request body's length differs from its Content-Length header"))
        default:
            // The cases with a value compare only through their description.
            switch error.shortDescription {
            case HTTPClientError.unsupportedScheme("").shortDescription:
                return urlError(.unsupportedURL, url: url, error.shortDescription)
            case HTTPClientError.invalidHeaderFieldNames([]).shortDescription,
                 HTTPClientError.invalidHeaderFieldValues([]).shortDescription:
                return NetworkError.invalidRequest(RequestProblem(.header, "\(error.shortDescription.lowercased()): a header name must be an HTTP token and a value must hold no control characters but tab (\(error))"))
            default:
                return urlError(.unknown, url: url, "\(error)")
            }
        }
    }

    private static func map(_ error: ChannelError, url: URL?) -> URLError {
        switch error {
        case .connectTimeout:
            return urlError(.timedOut, url: url, "The request timed out.")
        case .eof, .ioOnClosedChannel, .alreadyClosed, .inputClosed, .outputClosed:
            return urlError(.networkConnectionLost, url: url, "\(error)")
        default:
            return urlError(.unknown, url: url, "\(error)")
        }
    }

    /// The `URLError` code `URLSession` gives for a socket's `errno`.
    static func code(forErrno errno: CInt) -> URLError.Code {
        switch errno {
        case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: .cannotConnectToHost
        case ECONNRESET, EPIPE, ECONNABORTED: .networkConnectionLost
        case ETIMEDOUT: .timedOut
        case ENETDOWN: .notConnectedToInternet
        default: .unknown
        }
    }

    private static func urlError(_ code: URLError.Code, url: URL?, _ description: String) -> URLError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return URLError(code, userInfo: userInfo)
    }
}
