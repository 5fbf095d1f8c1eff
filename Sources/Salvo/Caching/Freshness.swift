import Foundation

/// How old a stored response is and how long it stays fresh (RFC 9111 §4.2), and how long past
/// that it may still be served (RFC 5861), at one moment.
///
/// ```swift
/// let freshness = Freshness(of: stored, at: now)
/// freshness.isFresh            // lifetime > age
/// ```
struct Freshness: Sendable, Hashable {
    /// The freshness lifetime in seconds (§4.2.1): `max-age`, else `Expires` − `Date`, else
    /// 10% of `Date` − `Last-Modified` for a heuristically cacheable status (§4.2.2), else 0.
    let lifetime: TimeInterval
    /// The current age in seconds (§4.2.3).
    let age: TimeInterval
    /// Whether the lifetime came from the heuristic rather than from the server.
    let isHeuristic: Bool

    /// Statuses a cache may give a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness of `response` at `now`.
    init(of response: CachedResponse, at now: Date) {
        let control = response.cacheControl
        let date = Self.date(of: response)
        if let maxAge = control.maxAge {
            lifetime = maxAge
            isHeuristic = false
        } else if let expires = response.value(forField: "Expires") {
            // An Expires that is not a date (often "0" or "-1") means already expired (§5.3).
            lifetime = HTTPDate.date(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
            isHeuristic = false
        } else if Self.heuristicallyCacheable.contains(response.statusCode) || control.hasPublic,
                  let lastModified = response.value(forField: "Last-Modified").flatMap({ HTTPDate.date($0) }) {
            lifetime = max(0, date.timeIntervalSince(lastModified)) / 10
            isHeuristic = true
        } else {
            lifetime = 0
            isHeuristic = false
        }
        age = Self.age(of: response, date: date, at: now)
    }

    /// The current age in seconds of `response` at `now` (§4.2.3), without its lifetime: what a
    /// response just stored is marked with.
    static func age(of response: CachedResponse, at now: Date) -> TimeInterval {
        age(of: response, date: date(of: response), at: now)
    }

    /// The response's `Date`, or when it arrived when it has none that reads as an HTTP date.
    private static func date(of response: CachedResponse) -> Date {
        response.value(forField: "Date").flatMap { HTTPDate.date($0) } ?? response.responseTime
    }

    /// The largest age a cache tells apart, 2^31 seconds (§1.2.2): what a larger `Age` reads as,
    /// and an unreadable one, so a broken `Age` never makes a response fresh.
    static let largestAge: TimeInterval = 2_147_483_648

    /// The seconds of an `Age` field (§5.1): its first member when it repeats (`7200, 0`), without
    /// parameters, at most ``largestAge``; ``largestAge`` when that is not a number of seconds,
    /// 0 when there is no field.
    static func ageValue(_ field: String?) -> TimeInterval {
        guard let field else { return 0 }
        let member = field.utf8.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }.map { field[..<$0] } ?? field[...]
        let digits = CacheControl.trimmed(member)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return largestAge }
        return Int(digits).map { min(TimeInterval($0), largestAge) } ?? largestAge
    }

    /// The age of `response`, whose `Date` is `date`, at `now`.
    private static func age(of response: CachedResponse, date: Date, at now: Date) -> TimeInterval {
        let ageValue = ageValue(response.value(forField: "Age"))
        let apparentAge = max(0, response.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, response.responseTime.timeIntervalSince(response.requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = max(0, now.timeIntervalSince(response.responseTime))
        return correctedInitialAge + residentTime
    }

    /// Whether the response is fresh: its lifetime exceeds its age.
    var isFresh: Bool { lifetime > age }

    /// Seconds past the lifetime; 0 while fresh.
    var staleness: TimeInterval { max(0, age - lifetime) }

    /// Whether the response may answer `request` without the server under the protocol's rules:
    /// fresh by the response's and the request's directives (`max-age`, `min-fresh`,
    /// `max-stale`), with nothing demanding revalidation (`no-cache` on either side, where a
    /// request's does not apply to a fresh `immutable` response, nor does a reload's `max-age=0`).
    func satisfies(_ request: CacheControl, response: CacheControl) -> Bool {
        if response.noCache { return false }
        // An immutable response stays fresh through a reload (RFC 8246): no-cache and max-age=0 ask nothing of it.
        let isFreshImmutable = response.isImmutable && isFresh
        if request.noCache, !isFreshImmutable { return false }
        if let maxAge = request.maxAge, age > maxAge, !(maxAge == 0 && isFreshImmutable) { return false }
        let needed = age + (request.minFresh ?? 0)
        if lifetime > needed { return true }
        // max-stale lets a stale response through unless the server forbade it (§5.2.2.2).
        guard let maxStale = request.maxStale, !response.mustRevalidate else { return false }
        return staleness <= maxStale
    }

    /// Whether a stale response may be served while it is revalidated in the background (RFC 5861 §3).
    func allowsServingWhileRevalidating(_ response: CacheControl) -> Bool {
        guard !isFresh, !response.noCache, !response.mustRevalidate, let window = response.staleWhileRevalidate else { return false }
        return staleness <= window
    }

    /// Whether a stale response may be served because the server or network failed (RFC 5861 §4):
    /// `stale-if-error` on the response or the request covers its staleness, and no directive
    /// forbids serving it stale.
    func allowsServingAfterError(_ response: CacheControl, request: CacheControl) -> Bool {
        if isFresh && !response.noCache { return true }
        guard !response.noCache, !response.mustRevalidate else { return false }
        let window = max(response.staleIfError ?? -1, request.staleIfError ?? -1)
        return window >= 0 && staleness <= window
    }
}
