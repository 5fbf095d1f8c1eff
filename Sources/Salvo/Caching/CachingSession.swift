import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``NetworkSession`` that answers from an ``HTTPCache`` where its ``CachePolicy`` allows and
/// sends the rest through another session: `URLSession`, the AsyncHTTPClient transport, mock or
/// replay firing alike.
///
/// For a GET or HEAD it answers from the store while the response is fresh (a `304` when the
/// request's own `If-None-Match` / `If-Modified-Since` matches, a `206` part of a complete `200`
/// for a `Range`), revalidates a stale one with `If-None-Match` / `If-Modified-Since` and merges
/// the `304`, stores what may be stored, and under ``CachePolicy/offlineFirst`` (or
/// `stale-if-error`) answers from the store when the network or the server fails. Every head it
/// delivers carries a ``ResponseHead/cacheStatus``. A request with another method passes
/// through, and when it succeeds the entries of its URL are removed (RFC 9111 §4.4). Streamed calls, downloads and
/// calls that report progress pass through untouched unless the policy includes streams.
/// `URLCache` is off for every request it sends, so nothing is cached twice (a `URLSession`
/// made without a `URLCache` gets its requests as they are).
///
/// ```swift
/// let cache = HTTPCache(store: .disk(in: cachesFolder))
/// call.firingFunction = .session(CachingSession(wrapping: URLSession.shared, cache: cache, policy: .offlineFirst))
/// ```
public struct CachingSession: NetworkSession {
    /// The session that sends what the store cannot answer.
    let base: any NetworkSession
    /// Where responses are kept.
    let cache: HTTPCache
    /// How the store and the network are chosen between.
    let policy: CachePolicy
    /// Whether each request sent needs `URLCache` turned off: not when `base` is a `URLSession`
    /// without one, where setting the policy would only copy the request (7.7k instructions a
    /// miss on Linux, where the copy is an `NSMutableURLRequest`).
    let turnsURLCacheOff: Bool

    /// A session answering from `cache` under `policy` and sending the rest through `base`.
    public init(wrapping base: any NetworkSession = URLSession.shared, cache: HTTPCache, policy: CachePolicy = .protocolRules) {
        self.base = base
        self.cache = cache
        self.policy = policy
        turnsURLCacheOff = Self.mayUseURLCache(base)
    }

    /// Whether `session` may answer from or write to a `URLCache`: anything but a `URLSession`
    /// whose configuration has none may, as far as the cache can tell.
    static func mayUseURLCache(_ session: any NetworkSession) -> Bool {
        guard let session = session as? URLSession else { return true }
        return session.configuration.urlCache != nil
    }

    /// Answers `request` from the store, the network, or both, as the policy says.
    @_spi(Transport) public func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        if options.readsBodyAsItArrives, !policy.includesStreams {
            return base.start(request, options: options, receiver: receiver)
        }
        // Read once, and searched without Foundation: `value(forHTTPHeaderField:)` compares
        // every name with `caseInsensitiveCompare`, costly on Linux.
        let headers = request.allHTTPHeaderFields ?? [:]
        let key = cache.key(for: request, headers: headers, credentialHeaders: options.credentialHeaders)
        guard key.method == "GET" || key.method == "HEAD" else {
            if Self.safeMethods.contains(key.method) { return base.start(request, options: options, receiver: receiver) }
            return base.start(request, options: options, receiver: InvalidatingReceiver(passingTo: receiver, cache: cache, requestURL: request.url))
        }
        let requestControl = CacheControl(headers.first { HTTPHeaders.namesMatch($0.key, "Cache-Control") }?.value)
        // A Range the stored response cannot slice goes to the network as if nothing were stored (§3.4).
        let stored = requestControl.noStore ? nil : cache.storedResponse(for: key, matching: request).flatMap { $0.canAnswer(headers, method: key.method) ? $0 : nil }
        let freshness = stored.map { Freshness(of: $0, at: cache.now()) }
        if let stored, let freshness {
            let control = stored.cacheControl
            switch policy.rule {
            case .cacheFirst:
                return answer(receiver, to: headers, from: stored, .cache, freshness)
            case .protocolRules, .offlineFirst:
                if freshness.satisfies(requestControl, response: control) {
                    return answer(receiver, to: headers, from: stored, .cache, freshness)
                }
                if !requestControl.onlyIfCached, !requestControl.noCache, freshness.allowsServingWhileRevalidating(control) {
                    revalidateInBackground(request, key: key, stored: stored, credentialHeaders: options.credentialHeaders)
                    return answer(receiver, to: headers, from: stored, .cache, freshness)
                }
            case .networkOnly:
                break
            }
        }
        if requestControl.onlyIfCached {
            // RFC 9111 §5.2.1.7: nothing stored that may answer, and the network must not be asked.
            CollectedExchange(head: ResponseHead(statusCode: 504, url: request.url ?? URL(fileURLWithPath: "/")), body: Data())
                .marked { _ in CacheStatus(source: .cache) }
                .deliver(to: receiver)
            return FinishedSessionTask()
        }
        let isConditional = policy.rule != .networkOnly && stored?.hasValidator == true
        return fetch(request, key: key, stored: stored, conditional: isConditional, requestControl: requestControl, credentialHeaders: options.credentialHeaders, receiver: receiver)
    }

    /// Methods that change nothing on the server, so they invalidate nothing (RFC 9110 §9.2.1).
    private static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// Reports `stored` to `receiver` as the answer to a request with the header fields
    /// `request` (a `304` or a `206` when it asks for one), marked `source`.
    private func answer(_ receiver: any ResponseReceiver, to request: [String: String], from stored: CachedResponse, _ source: CacheStatus.Source, _ freshness: Freshness) -> any NetworkSessionTask {
        let status = CacheStatus(source: source, age: freshness.age, isStale: !freshness.isFresh)
        Self.exchange(stored.answer(to: request), status: status).deliver(to: receiver)
        return FinishedSessionTask()
    }

    /// `answer` as an exchange marked `status`.
    private static func exchange(_ answer: CachedResponse, status: CacheStatus) -> CollectedExchange {
        CollectedExchange(head: answer.head(status: status), body: answer.body)
    }

    // MARK: - Network

    /// Sends `request` (conditional on `stored`'s validators when `conditional`), decides on the
    /// answer, and reports it to `receiver`; identical GETs share one exchange when the policy coalesces.
    private func fetch(
        _ request: URLRequest,
        key: CacheKey,
        stored: CachedResponse?,
        conditional: Bool,
        requestControl: CacheControl,
        credentialHeaders: Set<String>,
        receiver: any ResponseReceiver
    ) -> any NetworkSessionTask {
        let (outgoing, sentConditional) = outgoing(request, conditionalOn: conditional ? stored : nil)
        let requestTime = cache.now()
        // The body is collected to be decided on, whoever reads it.
        let collecting = ExchangeOptions(credentialHeaders: credentialHeaders)
        let decide: @Sendable (CollectedExchange) -> CollectedExchange = { [self] exchange in
            decision(on: exchange, for: request, key: key, stored: stored, sentConditional: sentConditional, requestControl: requestControl, requestTime: requestTime)
        }
        let isCoalescible = policy.coalescesRequests && key.method == "GET" && request.httpBody == nil && request.httpBodyStream == nil
        guard isCoalescible else {
            return base.start(outgoing, options: collecting, receiver: ExchangeCollector { exchange in
                decide(exchange).deliver(to: receiver)
            })
        }
        return cache.coalescer.join(Self.coalescingKey(request, key: key), receiver: receiver) { land in
            base.start(outgoing, options: collecting, receiver: ExchangeCollector { land(decide($0)) })
        }
    }

    /// What decides whether two requests are identical: the key (method, URL, user) and every
    /// other header field, so a field `Vary` may name never mixes two answers.
    private static func coalescingKey(_ request: URLRequest, key: CacheKey) -> String {
        let fields = (request.allHTTPHeaderFields ?? [:])
            .filter { !CacheKey.commonCredentialFields.contains($0.key.lowercased()) }
            .map { "\($0.key.lowercased()): \($0.value)" }
            .sorted()
        return fields.isEmpty ? key.logDescription : key.logDescription + " {" + fields.joined(separator: "; ") + "}"
    }

    /// `request` as sent: `URLCache` off (unless the base session has none, or the request
    /// already says so), and the validators of `stored` unless the caller set its own; and
    /// whether it carries any of them.
    private func outgoing(_ request: URLRequest, conditionalOn stored: CachedResponse?) -> (URLRequest, isConditional: Bool) {
        var outgoing = request
        if turnsURLCacheOff, request.cachePolicy != .reloadIgnoringLocalCacheData {
            outgoing.cachePolicy = .reloadIgnoringLocalCacheData
        }
        var isConditional = false
        if let stored {
            if let etag = stored.value(forField: "ETag"), request.value(forHTTPHeaderField: "If-None-Match") == nil {
                outgoing.setValue(etag, forHTTPHeaderField: "If-None-Match")
                isConditional = true
            }
            if let lastModified = stored.value(forField: "Last-Modified"), request.value(forHTTPHeaderField: "If-Modified-Since") == nil {
                outgoing.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
                isConditional = true
            }
        }
        return (outgoing, isConditional)
    }

    /// The answer the caller gets for the network's `exchange`: the stored response after a
    /// `304` or a failure that allows it, otherwise the exchange, stored when it may be.
    private func decision(
        on exchange: CollectedExchange,
        for request: URLRequest,
        key: CacheKey,
        stored: CachedResponse?,
        sentConditional: Bool,
        requestControl: CacheControl,
        requestTime: Date
    ) -> CollectedExchange {
        let responseTime = cache.now()
        guard exchange.error == nil, let head = exchange.head else {
            if let stored, !Self.isCancellation(exchange.error), let served = servedAfterError(stored, to: request, requestControl) { return served }
            return exchange
        }
        if head.statusCode == 304, sentConditional, let stored {
            let updated = stored.updated(by: head, requestTime: requestTime, responseTime: responseTime, hiding: cache.redaction.headers)
            cache.save(updated, for: key)
            let freshness = Freshness(of: updated, at: responseTime)
            return Self.exchange(updated.answer(to: request.allHTTPHeaderFields ?? [:]), status: CacheStatus(source: .revalidated, age: freshness.age))
        }
        if head.statusCode >= 500, let stored, let served = servedAfterError(stored, to: request, requestControl) { return served }
        let body = exchange.body ?? Data()
        if let vary = Self.storableVary(head, requestControl: requestControl) {
            let entry = cache.entry(for: request, head: head, body: body, vary: vary, requestTime: requestTime, responseTime: responseTime)
            cache.save(entry, for: key)
            return exchange.marked { _ in CacheStatus(source: .network, age: Freshness.age(of: entry, at: responseTime)) }
        }
        return exchange.marked { _ in CacheStatus(source: .network) }
    }

    /// The stored response as the answer to `request` after a failure, when the policy or its directives allow.
    private func servedAfterError(_ stored: CachedResponse, to request: URLRequest, _ requestControl: CacheControl) -> CollectedExchange? {
        let freshness = Freshness(of: stored, at: cache.now())
        switch policy.rule {
        case .offlineFirst:
            break
        case .protocolRules:
            guard freshness.allowsServingAfterError(stored.cacheControl, request: requestControl) else { return nil }
        case .cacheFirst, .networkOnly:
            return nil
        }
        let status = CacheStatus(source: .staleAfterError, age: freshness.age, isStale: !freshness.isFresh)
        return Self.exchange(stored.answer(to: request.allHTTPHeaderFields ?? [:]), status: status)
    }

    /// Sends a conditional request for `stored` and keeps the answer, for a stale response
    /// served under `stale-while-revalidate`; nobody waits for it.
    private func revalidateInBackground(_ request: URLRequest, key: CacheKey, stored: CachedResponse, credentialHeaders: Set<String>) {
        let (outgoing, isConditional) = outgoing(request, conditionalOn: stored)
        let requestTime = cache.now()
        let control = CacheControl(request.value(forHTTPHeaderField: "Cache-Control"))
        _ = base.start(outgoing, options: ExchangeOptions(credentialHeaders: credentialHeaders), receiver: ExchangeCollector { [self] exchange in
            _ = decision(on: exchange, for: request, key: key, stored: stored, sentConditional: isConditional, requestControl: control, requestTime: requestTime)
        })
    }

    private static func isCancellation(_ error: (any Error)?) -> Bool {
        if let error = error as? URLError { return error.code == .cancelled }
        if let error = error as? NetworkError, case .cancelled = error { return true }
        return error is CancellationError
    }

    /// The lowercased field names the response varies on when it may be stored (RFC 9111 §3),
    /// `nil` when it may not: a final status the cache understands, no `no-store` on either
    /// side, no `Vary: *`, and an explicit lifetime, a heuristically cacheable status, or `public`.
    /// It looks up the three fields it needs rather than reading them all (see ``HeadFields``).
    static func storableVary(_ head: ResponseHead, requestControl: CacheControl) -> [String]? {
        guard (200..<600).contains(head.statusCode), head.statusCode != 206, head.statusCode != 304, !requestControl.noStore else { return nil }
        let control = CacheControl(head.value(forField: "Cache-Control"))
        guard !control.noStore else { return nil }
        let isExplicit = control.maxAge != nil || control.hasPublic || control.has("private") || head.value(forField: "Expires") != nil
        guard isExplicit || Freshness.heuristicallyCacheable.contains(head.statusCode) else { return nil }
        guard let varyField = head.value(forField: "Vary") else { return [] }
        let vary = varyField.split(separator: ",")
            .map { CacheControl.trimmed($0).lowercased() }
            .filter { !$0.isEmpty }
        guard !vary.contains("*") else { return nil }
        return vary
    }
}
