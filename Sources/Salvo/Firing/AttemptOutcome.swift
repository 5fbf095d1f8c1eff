import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one attempt at a call produced: the request sent and the response, body or error that came back.
///
/// Actions see it after each attempt; the responder receives it once, after the last.
///
/// ```swift
/// func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
///     outcome.head?.statusCode == 503 ? .retryAfter(2) : .proceed
/// }
/// ```
public struct AttemptOutcome: Sendable {
    /// The request as sent, after every action adapted it; `nil` when it could not be built.
    public var request: URLRequest?
    /// The response head, `nil` when none arrived.
    public var head: ResponseHead?
    /// The body received, if any.
    public var data: Data?
    /// Why the attempt failed before (or instead of) a usable response: transport failure,
    /// cancellation, invalid request, or an error an action chose; `nil` when a response arrived.
    public var error: NetworkError?
    /// Seconds from handing the request to the session until it answered; `nil` when nothing was sent.
    public var duration: TimeInterval?
    /// Whether this is the head of a streamed call: the body is still to come and goes to the
    /// stream, so ``data`` is `nil`. Actions decide on it before the first byte is streamed.
    public var isStreamedHead = false
    /// What each attempt of the call so far measured, this one last; empty unless the server
    /// collects metrics (``ServerConfig/collectsMetrics``). See ``AttemptMetrics``.
    public var metrics: [AttemptMetrics] = []

    /// An outcome from its parts.
    @_spi(Transport) public init(
        request: URLRequest?,
        head: ResponseHead?,
        data: Data? = nil,
        error: NetworkError? = nil,
        duration: TimeInterval? = nil
    ) {
        self.request = request
        self.head = head
        self.data = data
        self.error = error
        self.duration = duration
    }

    /// An outcome from its parts, with the head as Foundation reported it.
    @_spi(Transport) public init(
        request: URLRequest?,
        urlResponse: URLResponse? = nil,
        data: Data? = nil,
        error: NetworkError? = nil,
        duration: TimeInterval? = nil
    ) {
        self.init(request: request, head: urlResponse.flatMap(ResponseHead.init), data: data, error: error, duration: duration)
    }

    // What the library reads of the head; an action reads `head?.statusCode`,
    // `head?.httpURLResponse`.

    /// The head as Foundation's `URLResponse`, `nil` when none arrived; made from ``head``
    /// the first time it is read when the transport parsed the head itself.
    var urlResponse: URLResponse? {
        get { head?.urlResponse }
        set { head = newValue.flatMap(ResponseHead.init) }
    }

    /// The head as Foundation's `HTTPURLResponse`, if it is an HTTP one.
    var httpResponse: HTTPURLResponse? { head?.httpURLResponse }

    /// The HTTP status code, if an HTTP response arrived.
    var statusCode: Int? { head.flatMap { $0.isHTTP ? $0.statusCode : nil } }

    /// The body on success, or the error the responder will receive.
    ///
    /// A status outside 200–299 is ``NetworkError/serverStatus(_:)`` carrying the status, URL and body.
    public var result: Result<Data, NetworkError> {
        if let error { return .failure(error) }
        if let head, !head.isSuccess {
            return .failure(.serverStatus(ResponseProblem(head: head, body: data)))
        }
        return .success(data ?? Data())
    }
}
