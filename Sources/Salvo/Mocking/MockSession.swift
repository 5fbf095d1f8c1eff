import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``NetworkSession`` that answers every request from code, never touching the network.
///
/// Fire through it with ``FiringFunction/session(_:clock:)`` (the `.mock(...)` firing functions do), so
/// mock answers take the same path as production ones: actions, status validation, error
/// mapping, handler order and async/await all behave identically. Like a real session it reports
/// the head, then the body (in pieces over time for a streamed answer or a limited bandwidth),
/// then the end, so streamed calls stream offline too.
///
/// ```swift
/// let session = MockSession(conditions: .slow(seed: 1)) { request in
///     request.method == .get ? .json(users) : .status(405)
/// }
/// call.firingFunction = .session(session)
/// ```
public struct MockSession: NetworkSession {
    private let answer: @Sendable (MockRequest) -> MockResponse
    /// The answer to every request, resolved once, when the session gives the same one at once
    /// to every request (`.mock(.json(x))` on a perfect network): no ``MockRequest``, `answer`
    /// call or resolving per request.
    private let immediateAnswer: ImmediateAnswer?
    private let conditions: NetworkConditions
    private let clock: NetworkClock
    private let generator: Locked<SplitMix64>
    /// No latency, bandwidth limit or failures: every draw would be "at once, succeeds", so none is made.
    private let isPerfectNetwork: Bool

    /// A session answering each request with `answer`, under `conditions`.
    ///
    /// - Parameters:
    ///   - conditions: simulated latency, bandwidth and failures; the generator is seeded once per
    ///     session, so firing the same requests in the same order repeats the same delays,
    ///     bandwidths and failures.
    ///   - clock: what waits out the latency and paces streamed and bandwidth-limited bodies;
    ///     ``NetworkClock/live`` by default.
    ///   - answer: the canned answer for a request.
    public init(
        conditions: NetworkConditions = NetworkConditions(),
        clock: NetworkClock = .live,
        answer: @escaping @Sendable (MockRequest) -> MockResponse
    ) {
        self.init(conditions: conditions, clock: clock, answer: answer, cannedAnswer: nil)
    }

    /// An answer that is the same for every request and arrives whole at once: a status, fields
    /// and a body at hand, and no redirect to follow.
    private struct ImmediateAnswer: Sendable {
        let status: Int
        let fields: [HTTPHeaders.Field]
        let body: Data

        /// `response` as an immediate answer, when it is one.
        init?(_ response: MockResponse) {
            guard response.latency == 0, case .http(let status, let headers, .data(let body)) = response.answer,
                  !(300..<400).contains(status) else { return nil }
            self.status = status
            fields = headers.fields
            self.body = body
        }
    }

    /// A session answering every request with `response`, under `conditions`.
    init(conditions: NetworkConditions, clock: NetworkClock, answering response: MockResponse) {
        self.init(conditions: conditions, clock: clock, answer: { _ in response }, cannedAnswer: response)
    }

    private init(
        conditions: NetworkConditions,
        clock: NetworkClock,
        answer: @escaping @Sendable (MockRequest) -> MockResponse,
        cannedAnswer: MockResponse?
    ) {
        self.answer = answer
        self.conditions = conditions
        self.clock = clock
        self.generator = Locked(SplitMix64(seed: conditions.seed))
        let isPerfectNetwork = NetworkConditions.clampedDelay(conditions.latency.upperBound) == 0
            && !(conditions.failureRate > 0) && conditions.bandwidth == nil
        self.isPerfectNetwork = isPerfectNetwork
        immediateAnswer = isPerfectNetwork ? cannedAnswer.flatMap(ImmediateAnswer.init) : nil
    }

    /// Answers `request`: at once, before returning, when the conditions add no delay and the
    /// body arrives whole; otherwise on the clock, without blocking a thread.
    @_spi(Transport) public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        // Each `URLRequest` getter reads through `NSMutableURLRequest` on Linux: the stream is read once.
        let bodyStream = request.httpBodyStream
        if let stream = bodyStream as? BodyStream, stream.makesChunks {
            return startReadingChunks(of: stream, request, options: options, receiver: receiver)
        }
        if let immediateAnswer {
            return answer(request, bodyStream: bodyStream, with: immediateAnswer, receiver: receiver)
        }
        return start(request, bodyStream: bodyStream, options: options, answering: answer(MockRequest(request)), receiver: receiver)
    }

    /// Answers a request whose body is made while it is sent: the chunks are read first, in a
    /// task, so that the answer sees them and no thread waits for them; a body that fails fails
    /// the exchange as an upload would.
    private func startReadingChunks(
        of stream: BodyStream,
        _ request: URLRequest,
        options: ExchangeOptions,
        receiver: any ResponseReceiver
    ) -> any NetworkSessionTask {
        let answer = answer
        // A stream is not Sendable; what it is made of is.
        let segments = stream.segments, streamedBody = stream.body, length = stream.length
        return startOnClock(request, options: options, draw: drawConditions(), receiver: receiver) {
            let body = try await BodyStream(segments, of: streamedBody).collect(limit: MockRequest.streamedBodyLimit)
            let response = answer(MockRequest(request, madeBody: body)).next()
            return (response, body, body?.count ?? length.map { Int($0) } ?? 0)
        }
    }

    /// The exchange on the clock, in a task: `prepare` works out the answer, the body it saw and
    /// the bytes to report sent; then the body is reported sent (paced by the drawn bandwidth),
    /// the latency passes, and the answer (or the drawn failure) arrives, paced.
    private func startOnClock(
        _ request: URLRequest,
        options: ExchangeOptions,
        draw: NetworkConditions.Draw,
        receiver: any ResponseReceiver,
        prepare: @escaping @Sendable () async throws -> (response: MockResponse, madeBody: Data?, uploadLength: Int)
    ) -> any NetworkSessionTask {
        let answer = answer, clock = clock, credentialHeaders = options.credentialHeaders
        let failure = draw.fails ? URLError(conditions.failure) : nil
        return MockSessionTask.start(reportingTo: receiver) { task in
            let (response, madeBody, uploadLength) = try await prepare()
            try await task.send(uploadLength, bandwidth: draw.bandwidth, on: clock)
            try await clock.sleep(for: NetworkConditions.clampedDelay(response.latency + draw.delay))
            try await task.deliver({
                if let failure { throw failure }
                return try Self.follow(request, answeredBy: response, answer: answer, madeBody: madeBody, protecting: credentialHeaders, reportingTo: receiver)
            }, bandwidth: draw.bandwidth, on: clock)
        }
    }

    /// What the conditions do to the next request: nothing on a perfect network, without a lock.
    private func drawConditions() -> NetworkConditions.Draw {
        isPerfectNetwork
            ? NetworkConditions.Draw(delay: 0, fails: false)
            : generator.withLock { conditions.draw(using: &$0) }
    }

    /// Answers `request` with `response` (worked out by the caller) under this session's
    /// conditions; redirects it answers with are followed through the session's own answer.
    ///
    /// In order: the request body is reported sent (paced by the drawn bandwidth), the latency
    /// passes, then the head and the body's chunks arrive (paced by their own times and the
    /// bandwidth), then the end. A failure the conditions draw ends the exchange instead of the head.
    package func start(
        _ request: URLRequest,
        options: ExchangeOptions,
        answering response: consuming MockResponse,
        receiver: any ResponseReceiver
    ) -> any NetworkSessionTask {
        start(request, bodyStream: request.httpBodyStream, options: options, answering: response, receiver: receiver)
    }

    /// ``start(_:options:answering:receiver:)`` for a request whose `httpBodyStream` is `bodyStream`.
    private func start(
        _ request: URLRequest,
        bodyStream: InputStream?,
        options: ExchangeOptions,
        answering response: consuming MockResponse,
        receiver: any ResponseReceiver
    ) -> any NetworkSessionTask {
        let draw = drawConditions()
        let response = response.next()
        let delay = NetworkConditions.clampedDelay(response.latency + draw.delay)
        let uploadLength = Self.uploadLength(of: request, bodyStream: bodyStream)
        guard delay == 0, draw.bandwidth == nil else {
            return startOnClock(request, options: options, draw: draw, receiver: receiver) { (response, nil, uploadLength) }
        }
        let failure = draw.fails ? URLError(conditions.failure) : nil
        let answer = answer, credentialHeaders = options.credentialHeaders
        // Answered at once: no closure, no task, no thread hop (mock firing's hot path).
        if uploadLength > 0 { receiver.didSend(Int64(uploadLength), of: Int64(uploadLength)) }
        if let failure {
            receiver.finish(failure)
            return FinishedSessionTask()
        }
        let resolved: MockResponse.Resolved
        do {
            resolved = try Self.follow(request, answeredBy: consume response, answer: answer, madeBody: nil, protecting: credentialHeaders, reportingTo: receiver)
        } catch {
            receiver.finish(error)
            return FinishedSessionTask()
        }
        if let chunks = resolved.chunks, !BodyPacing(length: resolved.body.count, chunks: chunks, bandwidth: nil).isImmediate {
            let clock = clock
            return MockSessionTask.start(reportingTo: receiver) { try await $0.deliver({ resolved }, bandwidth: nil, on: clock) }
        }
        receiver.finish(with: resolved.head, body: resolved.body)
        // Answered before returning, so there is nothing left to cancel: no task to track.
        return FinishedSessionTask()
    }

    /// Answers `request` with the session's immediate answer before returning, as
    /// ``start(_:bodyStream:options:answering:receiver:)`` would: the request body reported sent,
    /// then the whole response (without its body for a `HEAD`).
    private func answer(
        _ request: URLRequest,
        bodyStream: InputStream?,
        with answer: ImmediateAnswer,
        receiver: any ResponseReceiver
    ) -> any NetworkSessionTask {
        let uploadLength = Self.uploadLength(of: request, bodyStream: bodyStream)
        if uploadLength > 0 { receiver.didSend(Int64(uploadLength), of: Int64(uploadLength)) }
        // Everything of this file read before the receiver runs, so the answer leaves it once.
        let body = answer.body.isEmpty || !Self.isHead(request) ? answer.body : Data()
        let finished = Self.finished
        let head = ResponseHead(statusCode: answer.status, fields: answer.fields, url: request.url ?? URL(fileURLWithPath: "/"))
        receiver.finish(with: head, body: body, error: nil)
        return finished
    }

    /// The task every answer given before returning hands back: made once.
    private static let finished = FinishedSessionTask()

    /// The length of `request`'s body, where known; a body streamed from files (multipart,
    /// `.file`) is reported at its length too.
    private static func uploadLength(of request: URLRequest, bodyStream: InputStream?) -> Int {
        request.httpBody?.count ?? (bodyStream as? BodyStream)?.length.map { Int($0) } ?? 0
    }
}

extension MockSession {
    /// What `response` resolves to for `request`, following redirects through `answer` as
    /// production does (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`); a `HEAD` request gets no body.
    /// `madeBody`, the chunks of a body made while it is sent, goes with a redirect that keeps the body.
    ///
    /// - Throws: the error the answer stands for, or the redirect's (too many, a body that cannot be sent again).
    private static func follow(
        _ request: URLRequest,
        answeredBy response: consuming MockResponse,
        answer: @Sendable (MockRequest) -> MockResponse,
        madeBody: Data?,
        protecting credentialHeaders: Set<String>,
        reportingTo receiver: any ResponseReceiver
    ) throws -> MockResponse.Resolved {
        var current = request, response = response, redirectCount = 0
        while true {
            let resolved = try response.resolved(for: current)
            guard let next = try current.redirected(by: resolved.head, redirectCount: redirectCount, credentialHeaders: credentialHeaders) else {
                guard !resolved.body.isEmpty, isHead(current) else { return resolved }
                return MockResponse.Resolved(head: resolved.head, body: Data(), chunks: nil)
            }
            redirectCount += 1
            receiver.didFollowRedirect()
            current = next
            response = answer(MockRequest(next, madeBody: next.httpBodyStream == nil ? nil : madeBody)).next()
        }
    }

    /// Whether `request` is a `HEAD`; without allocating for the common methods.
    private static func isHead(_ request: URLRequest) -> Bool {
        guard let method = request.httpMethod, method.utf8.count == 4 else { return false }
        return method == "HEAD" || method.uppercased() == "HEAD"
    }
}

