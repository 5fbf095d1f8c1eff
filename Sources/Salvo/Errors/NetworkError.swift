import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything that can go wrong with a call, with the context a person needs to act on it.
///
/// ```swift
/// do {
///     let user = try await call.value(as: User.self)
/// } catch .serverStatus(let problem) where problem.statusCode == 404 {
///     showNotFound()
/// } catch {
///     showAlert(error.localizedDescription)
/// }
/// ```
///
/// The first three cases mean nothing was sent, and say whose fix it is: the call
/// (``invalidRequest(_:)``), an action (``refusedByAction(_:)``), or the offline or test setup
/// (``incompleteSetup(_:)``). Every payload describing a problem ends in `Problem`.
public indirect enum NetworkError: Error, Sendable {
    // Indirect: the payloads are boxed, so the `NetworkError?` in every outcome and the `Result`s on
    // the firing path are one word, copied as one retain; an error costs one allocation when made.
    /// The call could not be turned into a valid request; nothing was sent. Fix the call: its
    /// server, endpoint, headers or body.
    case invalidRequest(RequestProblem)
    /// An action's ``NetworkAction/prepare(_:for:)`` threw this error (not a
    /// `NetworkError`, which arrives unchanged); nothing was sent.
    ///
    /// ```swift
    /// catch .refusedByAction(let error as SigningError) { showSignIn(error) }
    /// ```
    case refusedByAction(any Error)
    /// The mock routes, mock answers, fixtures or session could not answer the request; nothing
    /// was sent. Complete the setup: add a route, record the fixture, fix the mock.
    case incompleteSetup(SetupProblem)
    /// The request did not complete: no connection, timeout, connection dropped mid-body.
    case transport(URLError)
    /// The server answered with a status outside the acceptable range (200–299 by default).
    case serverStatus(ResponseProblem)
    /// The response body could not be decoded into the expected type.
    case decoding(DecodingProblem)
    /// A response arrived but an action refused it: an unaccepted content type, a `401` whose
    /// token renewal failed. ``statusCode`` stays `nil`, so responders get it in `errorHandler`.
    case unacceptableResponse(ResponseProblem)
    /// The call was cancelled before it completed.
    case cancelled
}

extension NetworkError {
    /// The HTTP status code, when the server answered with an unacceptable one.
    public var statusCode: Int? {
        if case .serverStatus(let failure) = self { return failure.statusCode }
        return nil
    }

    /// The status of the response head the server sent before the call failed: the unacceptable
    /// status of ``serverStatus(_:)``, the status of a refused response, or that of a head whose
    /// body then stalled past the timeout or was cut off (``transport(_:)``); `nil` when no head
    /// arrived. ``statusCode`` is set for unacceptable statuses only.
    ///
    /// ```swift
    /// catch .transport(let error) where error.code == .timedOut {
    ///     log("timed out; the server had answered \(NetworkError.transport(error).receivedStatusCode.map(String.init) ?? "nothing")")
    /// }
    /// ```
    public var receivedStatusCode: Int? {
        switch self {
        case .serverStatus(let problem), .unacceptableResponse(let problem): return problem.statusCode
        case .transport(let error): return error.receivedStatusCode
        default: return nil
        }
    }

    /// This error, a refused response's problem found in the body of `head`, with the head's
    /// status, URL and headers filled in; any other error as it is.
    func answered(by head: ResponseHead) -> NetworkError {
        guard case .unacceptableResponse(let problem) = self else { return self }
        return .unacceptableResponse(problem.answered(by: head))
    }

    /// The body the server sent with an unacceptable status, a refused response or an
    /// undecodable one.
    public var responseBody: Data? {
        switch self {
        case .serverStatus(let failure): return failure.body
        case .decoding(let failure): return failure.body
        case .unacceptableResponse(let problem): return problem.body
        default: return nil
        }
    }

    /// Whether the call failed because its access token was refused and ``TokenRenewalAction``
    /// could not renew it: the renewal threw, or the token was renewed too often and is still
    /// refused. Usually the moment to sign the user out.
    ///
    /// ```swift
    /// catch let error where error.isRenewalFailure {
    ///     await session.signOut()
    /// }
    /// ```
    public var isRenewalFailure: Bool {
        if case .unacceptableResponse(let problem) = self { return problem.isRenewalFailure }
        return false
    }

    /// The error the token renewal failed with, when ``isRenewalFailure``: its status code,
    /// response body and description are the renewal endpoint's, not the refused call's. `nil`
    /// for any other failure, and when the renewal was not run because it ran too often.
    ///
    /// ```swift
    /// catch let error where error.isRenewalFailure {
    ///     log("renewal answered \(error.renewalError?.statusCode ?? 0)")
    /// }
    /// ```
    public var renewalError: NetworkError? {
        guard case .unacceptableResponse(let problem) = self, problem.isRenewalFailure else { return nil }
        return problem.underlying.map(NetworkError.init)
    }

    /// The body a typed call decodes as its error body: the body of an unaccepted status or,
    /// after a failed renewal, the body the renewal endpoint answered with.
    var errorBody: Data? {
        if case .serverStatus(let problem) = self { return problem.body }
        return renewalError?.errorBody
    }

    /// Whether the call ended before anything was sent because the request was invalid, an
    /// action refused it or the setup could not answer it (responders hear no response then).
    var isUnsent: Bool {
        switch self {
        case .invalidRequest, .refusedByAction, .incompleteSetup: return true
        default: return false
        }
    }

    /// Whether the call ended because it was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Maps any error from a session, an action or a decoder onto a `NetworkError`.
    ///
    /// - Parameter error: the error to classify; a `NetworkError` is returned unchanged.
    /// - Returns: `.cancelled` for cancellation, `.transport` for URL errors, `.transport(URLError(.unknown))` otherwise.
    @_spi(Transport) public init(_ error: any Error) {
        if let networkError = error as? NetworkError {
            self = networkError
        } else if let carrier = error as? any NetworkErrorCarrier {
            self = carrier.networkError
        } else if error is CancellationError {
            self = .cancelled
        } else if let urlError = error as? URLError {
            self = urlError.code == .cancelled ? .cancelled : .transport(urlError)
        } else {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain {
                // The initializer is failable on Linux and not on Apple platforms; this compiles on both.
                let known: URLError.Code? = URLError.Code(rawValue: nsError.code)
                let code = known ?? .unknown
                self = code == .cancelled ? .cancelled : .transport(URLError(code, userInfo: nsError.userInfo))
            } else {
                self = .transport(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"]))
            }
        }
    }

    /// `error` classified as by ``init(_:)``, its URL error naming `requestURL` when the transport
    /// left `failingURL` empty (URLSession on Linux does), so that every description names the URL.
    init(_ error: any Error, requestURL: URL?) {
        self.init(error)
        guard case .transport(let urlError) = self, urlError.failingURL == nil, let requestURL else { return }
        var userInfo = urlError.userInfo
        userInfo[NSURLErrorFailingURLErrorKey] = requestURL
        self = .transport(URLError(urlError.code, userInfo: userInfo))
    }
}

/// What Salvo adds to a transport error's `userInfo` about the exchange it ended, so that its
/// description tells a stalled body from a silent server, and a hang-up from a garbled answer.
extension URLError {
    /// The `userInfo` key of the status of a head that arrived before the error.
    static let receivedStatusCodeKey = "SalvoReceivedStatusCode"
    /// The `userInfo` key set when the server closed the connection before a byte of its answer.
    static let closedWithoutAnswerKey = "SalvoClosedWithoutAnswer"

    /// The status of the head that arrived before the error; `nil` when none did.
    var receivedStatusCode: Int? { userInfo[Self.receivedStatusCodeKey] as? Int }

    /// Whether the server closed the connection before a byte of its answer arrived.
    var isClosedWithoutAnswer: Bool { userInfo[Self.closedWithoutAnswerKey] as? Bool ?? false }

    /// This error with `value` under `key` in its `userInfo`.
    func adding(_ value: Any, forKey key: String) -> URLError {
        var userInfo = self.userInfo
        userInfo[key] = value
        return URLError(code, userInfo: userInfo)
    }
}

/// An error that wraps a ``NetworkError``, such as ``APIError`` whatever its body type, so that
/// ``NetworkError/init(_:)`` takes the network error out instead of calling it an unknown failure
/// (a token renewal that fires a typed call throws one).
protocol NetworkErrorCarrier: Error {
    /// The wrapped error.
    var networkError: NetworkError { get }
}
