import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// RFC 9111 §4.2 (freshness and age) and RFC 5861 (stale-while-revalidate, stale-if-error), one
/// row per rule, each naming the section a reader can check it against. Times are fixed: the
/// response arrived at `arrival`, a second after it was requested.
@Suite struct FreshnessTests {
    static let arrival = Date(timeIntervalSince1970: 1_800_000_000)
    static let date = "Fri, 15 Jan 2027 08:00:00 GMT" // 1_800_000_000 as an HTTP date

    static func response(_ headers: [String: String], status: Int = 200) -> CachedResponse {
        CachedResponse(
            statusCode: status, fields: headers.sorted { $0.key < $1.key }.map { CachedResponse.Field(name: $0.key, value: $0.value) },
            url: URL(string: "https://api.example.com/item")!, requestTime: arrival.addingTimeInterval(-1),
            responseTime: arrival, variant: [:], body: Data()
        )
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let headers: [String: String]
        var status = 200
        /// Seconds the response has been stored.
        let resident: TimeInterval
        let lifetime: TimeInterval
        let age: TimeInterval
        let isFresh: Bool
        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(rule: "§5.2.2.1 max-age gives the lifetime", headers: ["Cache-Control": "max-age=60", "Date": date], resident: 30, lifetime: 60, age: 31, isFresh: true),
        Row(rule: "§4.2.3 age counts the response delay (1 s) and resident time", headers: ["Cache-Control": "max-age=60", "Date": date], resident: 59, lifetime: 60, age: 60, isFresh: false),
        Row(rule: "§5.1 Age from upstream adds to the age", headers: ["Cache-Control": "max-age=60", "Age": "50", "Date": date], resident: 5, lifetime: 60, age: 56, isFresh: true),
        Row(rule: "§5.1 a list Age takes its first member", headers: ["Cache-Control": "max-age=3600", "Age": "7200, 0", "Date": date], resident: 0, lifetime: 3600, age: 7201, isFresh: false),
        Row(rule: "§5.1 an Age with parameters reads its number", headers: ["Cache-Control": "max-age=3600", "Age": "7200;q=1", "Date": date], resident: 0, lifetime: 3600, age: 7201, isFresh: false),
        Row(rule: "§5.1 an unreadable Age is the largest age, never fresh", headers: ["Cache-Control": "max-age=3600", "Age": "soon", "Date": date], resident: 0, lifetime: 3600, age: 2_147_483_649, isFresh: false),
        Row(rule: "§5.1 a negative Age is unreadable", headers: ["Cache-Control": "max-age=3600", "Age": "-5", "Date": date], resident: 0, lifetime: 3600, age: 2_147_483_649, isFresh: false),
        Row(rule: "§1.2.2 an Age past 2^31 is 2^31", headers: ["Cache-Control": "max-age=3600", "Age": "99999999999999999999", "Date": date], resident: 0, lifetime: 3600, age: 2_147_483_649, isFresh: false),
        Row(rule: "§4.2.3 apparent age from a Date in the past", headers: ["Cache-Control": "max-age=60", "Date": "Fri, 15 Jan 2027 07:59:00 GMT"], resident: 0, lifetime: 60, age: 60, isFresh: false),
        Row(rule: "§5.3 Expires minus Date gives the lifetime", headers: ["Expires": "Fri, 15 Jan 2027 08:02:00 GMT", "Date": date], resident: 100, lifetime: 120, age: 101, isFresh: true),
        Row(rule: "§5.3 max-age wins over Expires", headers: ["Cache-Control": "max-age=10", "Expires": "Fri, 15 Jan 2027 09:00:00 GMT", "Date": date], resident: 20, lifetime: 10, age: 21, isFresh: false),
        Row(rule: "§5.3 an invalid Expires means already expired", headers: ["Expires": "0", "Date": date], resident: 0, lifetime: 0, age: 1, isFresh: false),
        Row(rule: "§5.3 an Expires in UTC is no HTTP date: already expired", headers: ["Expires": "Fri, 15 Jan 2027 09:00:00 UTC", "Date": date], resident: 0, lifetime: 0, age: 1, isFresh: false),
        Row(rule: "§5.3 an Expires without its comma is no HTTP date: already expired", headers: ["Expires": "Fri 15 Jan 2027 09:00:00 GMT", "Date": date], resident: 0, lifetime: 0, age: 1, isFresh: false),
        Row(rule: "§5.3 an Expires in the RFC 850 form is read", headers: ["Expires": "Friday, 15-Jan-27 08:02:00 GMT", "Date": date], resident: 0, lifetime: 120, age: 1, isFresh: true),
        Row(rule: "§5.3 an Expires in the asctime form is read", headers: ["Expires": "Fri Jan 15 08:02:00 2027", "Date": date], resident: 0, lifetime: 120, age: 1, isFresh: true),
        Row(rule: "§4.2.2 heuristic: 10% of Date − Last-Modified", headers: ["Last-Modified": "Thu, 14 Jan 2027 22:00:00 GMT", "Date": date], resident: 3000, lifetime: 3600, age: 3001, isFresh: true),
        Row(rule: "§4.2.2 no heuristic for a status that is not heuristically cacheable", headers: ["Last-Modified": "Thu, 14 Jan 2027 22:00:00 GMT", "Date": date], status: 201, resident: 0, lifetime: 0, age: 1, isFresh: false),
        Row(rule: "§4.2.2 a Last-Modified with a one-digit hour is no date: no heuristic", headers: ["Last-Modified": "Thu, 14 Jan 2027 2:00:00 GMT", "Date": date], resident: 0, lifetime: 0, age: 1, isFresh: false),
        Row(rule: "§4.2.1 no explicit lifetime and no Last-Modified: stale at once", headers: ["Date": date], resident: 0, lifetime: 0, age: 1, isFresh: false),
        Row(rule: "§5.2.2.1 an unreadable max-age is ignored", headers: ["Cache-Control": "max-age=soon", "Date": date], resident: 0, lifetime: 0, age: 1, isFresh: false),
    ]

    @Test(arguments: rows)
    func freshness(_ row: Row) {
        let freshness = Freshness(of: Self.response(row.headers, status: row.status), at: Self.arrival.addingTimeInterval(row.resident))
        #expect(freshness.lifetime == row.lifetime)
        #expect(freshness.age == row.age)
        #expect(freshness.isFresh == row.isFresh)
    }

    struct Use: Sendable, CustomTestStringConvertible {
        let rule: String
        let response: String
        var request = ""
        let resident: TimeInterval
        let answersWithoutServer: Bool
        var whileRevalidating = false
        var afterError = false
        var testDescription: String { rule }
    }

    static let uses: [Use] = [
        Use(rule: "§4.2 a fresh response answers", response: "max-age=60", resident: 10, answersWithoutServer: true, afterError: true),
        Use(rule: "§5.2.2.4 no-cache always revalidates", response: "max-age=60, no-cache", resident: 0, answersWithoutServer: false),
        Use(rule: "§5.2.1.4 a request's no-cache revalidates", response: "max-age=60", request: "no-cache", resident: 0, answersWithoutServer: false, afterError: true),
        Use(rule: "RFC 8246 immutable ignores a request's no-cache while fresh", response: "max-age=60, immutable", request: "no-cache", resident: 0, answersWithoutServer: true, afterError: true),
        Use(rule: "RFC 8246 immutable ignores a request's max-age=0 (a reload) while fresh", response: "max-age=60, immutable", request: "max-age=0", resident: 10, answersWithoutServer: true, afterError: true),
        Use(rule: "RFC 8246 a stale immutable response still obeys a request's max-age", response: "max-age=60, immutable", request: "max-age=0", resident: 100, answersWithoutServer: false),
        Use(rule: "§5.2.1.1 a request's max-age caps the age", response: "max-age=60", request: "max-age=5", resident: 10, answersWithoutServer: false, afterError: true),
        Use(rule: "§5.2.1.3 min-fresh asks for time left", response: "max-age=60", request: "min-fresh=55", resident: 10, answersWithoutServer: false, afterError: true),
        Use(rule: "§5.2.1.2 max-stale accepts a stale response", response: "max-age=60", request: "max-stale=100", resident: 100, answersWithoutServer: true),
        Use(rule: "§5.2.1.2 max-stale without a value accepts any staleness", response: "max-age=60", request: "max-stale", resident: 100_000, answersWithoutServer: true),
        Use(rule: "§5.2.2.2 must-revalidate overrides max-stale", response: "max-age=60, must-revalidate", request: "max-stale", resident: 100, answersWithoutServer: false),
        Use(rule: "RFC 5861 §3 stale-while-revalidate within its window", response: "max-age=60, stale-while-revalidate=30", resident: 80, answersWithoutServer: false, whileRevalidating: true),
        Use(rule: "RFC 5861 §3 stale-while-revalidate past its window", response: "max-age=60, stale-while-revalidate=30", resident: 100, answersWithoutServer: false),
        Use(rule: "RFC 5861 §4 stale-if-error within its window", response: "max-age=60, stale-if-error=100", resident: 150, answersWithoutServer: false, afterError: true),
        Use(rule: "RFC 5861 §4 stale-if-error past its window", response: "max-age=60, stale-if-error=100", resident: 200, answersWithoutServer: false),
        Use(rule: "RFC 5861 §4 stale-if-error on the request", response: "max-age=60", request: "stale-if-error=100", resident: 150, answersWithoutServer: false, afterError: true),
        Use(rule: "§4.2.4 must-revalidate forbids stale-if-error", response: "max-age=60, must-revalidate, stale-if-error=100", resident: 150, answersWithoutServer: false),
    ]

    @Test(arguments: uses)
    func use(_ use: Use) {
        let stored = Self.response(["Cache-Control": use.response])
        let freshness = Freshness(of: stored, at: Self.arrival.addingTimeInterval(use.resident))
        let response = CacheControl(use.response), request = CacheControl(use.request)
        #expect(freshness.satisfies(request, response: response) == use.answersWithoutServer)
        #expect(freshness.allowsServingWhileRevalidating(response) == use.whileRevalidating)
        #expect(freshness.allowsServingAfterError(response, request: request) == use.afterError)
    }

    struct Storable: Sendable, CustomTestStringConvertible {
        let rule: String
        let status: Int
        let headers: HTTPHeaders
        var request = ""
        let vary: [String]?
        var testDescription: String { rule }
    }

    static let storables: [Storable] = [
        Storable(rule: "§3 a 200 is heuristically cacheable", status: 200, headers: [:], vary: []),
        Storable(rule: "§3 a 404 is heuristically cacheable", status: 404, headers: [:], vary: []),
        Storable(rule: "§3 a 201 needs an explicit lifetime", status: 201, headers: [:], vary: nil),
        Storable(rule: "§3 a 201 with max-age is stored", status: 201, headers: ["Cache-Control": "max-age=5"], vary: []),
        Storable(rule: "§3 a 500 with Expires is stored", status: 500, headers: ["Expires": "0"], vary: []),
        Storable(rule: "§5.2.2.5 no-store on the response", status: 200, headers: ["Cache-Control": "no-store"], vary: nil),
        Storable(rule: "§5.2.1.5 no-store on the request", status: 200, headers: [:], request: "no-store", vary: nil),
        Storable(rule: "§5.2.2.7 private may be stored by a private cache", status: 200, headers: ["Cache-Control": "private"], vary: []),
        Storable(rule: "§4.1 Vary names the fields, lowercased", status: 200, headers: ["Vary": "Accept-Language, Accept"], vary: ["accept-language", "accept"]),
        Storable(rule: "§4.1 Vary: * never matches", status: 200, headers: ["Vary": "*"], vary: nil),
        Storable(rule: "§3 206 is not stored (no range support)", status: 206, headers: ["Cache-Control": "max-age=60"], vary: nil),
    ]

    @Test(arguments: storables)
    func storable(_ row: Storable) throws {
        let head = ResponseHead(statusCode: row.status, headers: row.headers, url: try #require(URL(string: "https://api.example.com/item")))
        #expect(CachingSession.storableVary(head, requestControl: CacheControl(row.request)) == row.vary)
    }

    @Test func cacheControlReadsQuotedValuesAndIgnoresCase() {
        let control = CacheControl(#"Max-Age="30", private="set-cookie, x", NO-CACHE"#)
        #expect(control.maxAge == 30)
        #expect(control.noCache)
        #expect(control.has("private"))
    }

    @Test func sha256MatchesTheKnownDigests() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
