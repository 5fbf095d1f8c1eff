import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

/// RFC 9111's rules over every transport, one row per rule, against the loopback server's
/// `/cache/<key>/resource`: a first request stores the response, a second one (with the row's
/// own header fields) shows what the cache made of it, and the server's counter says whether the
/// second one reached it. The same rules read without a network are in `FreshnessTests`,
/// `HeadFieldsTests` and `HTTPDateTests`; Docs/Caching.md lists them all.
@Suite struct CacheRulesIntegrationTests {
    /// What the second request gets back, whatever its status.
    struct Answer {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        let source: CacheStatus.Source?
    }

    /// What a row's second answer must be.
    enum Body: Sendable {
        /// The stored body, whole.
        case whole
        /// The stored body's bytes at `range`, with a matching `Content-Range`.
        case slice(ClosedRange<Int>)
        /// Nothing.
        case empty
        /// The server's new answer, whole.
        case network
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        /// The resource's query: what the server sends with it.
        var query: [String: String] = [:]
        /// The second request's own header fields.
        var headers: [String: String] = [:]
        let status: Int
        let source: CacheStatus.Source
        /// Requests of the resource that reached the server, both included.
        let requests: Int
        var body: Body = .whole
        var testDescription: String { rule }
    }

    /// An hour from now as an HTTP date, in `zone`'s spelling.
    static func inAnHour(zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '\(zone)'"
        return formatter.string(from: Date().addingTimeInterval(3_600))
    }

    static let lastModified = "Fri, 15 Jan 2027 08:00:00 GMT"

    static let rows: [Row] = [
        // Age (§5.1)
        Row(rule: "§5.1 Age: 7200, 0 reads as 7200: stale at max-age=3600, revalidated",
            query: ["cc": "max-age=3600", "age": "7200, 0"], status: 200, source: .revalidated, requests: 2),
        Row(rule: "§5.1 an Age with a parameter reads its number",
            query: ["cc": "max-age=3600", "age": "7200;q=1"], status: 200, source: .revalidated, requests: 2),
        Row(rule: "§5.1 an unreadable Age never makes a response fresh",
            query: ["cc": "max-age=3600", "age": "soon"], status: 200, source: .revalidated, requests: 2),
        Row(rule: "§5.1 a readable Age below the lifetime keeps it fresh",
            query: ["cc": "max-age=3600", "age": "60"], status: 200, source: .cache, requests: 1),
        // Expires (§5.3, RFC 9110 §5.6.7)
        Row(rule: "§5.3 an IMF-fixdate Expires an hour ahead is fresh",
            query: ["cc": "none", "expires": inAnHour(zone: "GMT")], status: 200, source: .cache, requests: 1),
        Row(rule: "§5.3 an Expires in UTC rather than GMT is invalid: already expired",
            query: ["cc": "none", "expires": inAnHour(zone: "UTC")], status: 200, source: .revalidated, requests: 2),
        // The app's own conditional request (§4.3.2)
        Row(rule: "§4.3.2 the app's If-None-Match naming the fresh response's ETag: 304 from the cache",
            headers: ["If-None-Match": "\"v1\""], status: 304, source: .cache, requests: 1, body: .empty),
        Row(rule: "§4.3.2 If-None-Match compares weakly",
            headers: ["If-None-Match": "\"v0\", W/\"v1\""], status: 304, source: .cache, requests: 1, body: .empty),
        Row(rule: "§4.3.2 If-None-Match: * matches any stored response",
            headers: ["If-None-Match": "*"], status: 304, source: .cache, requests: 1, body: .empty),
        Row(rule: "§4.3.2 an If-None-Match naming another ETag gets the stored 200",
            headers: ["If-None-Match": "\"v0\""], status: 200, source: .cache, requests: 1),
        Row(rule: "§4.3.2 the app's If-Modified-Since at Last-Modified: 304 from the cache",
            query: ["lm": lastModified], headers: ["If-Modified-Since": lastModified], status: 304, source: .cache, requests: 1, body: .empty),
        Row(rule: "§4.3.2 an If-Modified-Since before Last-Modified gets the stored 200",
            query: ["lm": lastModified], headers: ["If-Modified-Since": "Fri, 15 Jan 2027 07:59:59 GMT"], status: 200, source: .cache, requests: 1),
        // Range (§3.4)
        Row(rule: "§3.4 a Range over a complete stored 200 gets a 206 slice of it",
            headers: ["Range": "bytes=0-4"], status: 206, source: .cache, requests: 1, body: .slice(0...4)),
        Row(rule: "§3.4 a suffix Range gets the last bytes",
            headers: ["Range": "bytes=-3"], status: 206, source: .cache, requests: 1, body: .slice(-3 ... -1)),
        Row(rule: "§3.4 a Range of two parts goes to the network (which answers it whole here)",
            headers: ["Range": "bytes=0-1,3-4"], status: 200, source: .network, requests: 2, body: .network),
        // immutable (RFC 8246)
        Row(rule: "RFC 8246 a fresh immutable response is not revalidated for a request's max-age=0",
            query: ["cc": "max-age=60, immutable"], headers: ["Cache-Control": "max-age=0"], status: 200, source: .cache, requests: 1),
        Row(rule: "§5.2.1.1 without immutable a request's max-age=0 revalidates",
            headers: ["Cache-Control": "max-age=0"], status: 200, source: .revalidated, requests: 2),
    ]

    let key = uniqueKey()

    func call(_ transport: TransportUnderTest, cache: HTTPCache, query: [String: String], headers: [String: String] = [:]) async throws -> NetCall {
        var endpoint = Endpoint.get("/cache/\(key)/resource", headers: HTTPHeaders(headers.map { ($0.key, $0.value) }))
        endpoint.query = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return NetCall(server: try await .loopback(), endpoint: endpoint, callbackQueue: .immediate,
                       firingFunction: .caching(in: cache, through: transport.session))
    }

    func answer(_ call: NetCall) async throws -> Answer {
        do {
            let response = try await withTimeout { try await call.response() }
            return Answer(status: response.head?.statusCode ?? 0, headers: response.head?.headers ?? [:], body: response.data, source: response.cacheStatus?.source)
        } catch NetworkError.serverStatus(let problem) {
            // A 304 or 206 from the store is reported as the server's would be: as a status.
            return Answer(status: problem.statusCode ?? 0, headers: problem.headers, body: problem.body ?? Data(), source: nil)
        }
    }

    func requests() async throws -> Int {
        struct Stats: Decodable { let requests: Int }
        let call = NetCall(server: try await .loopback(), endpoint: .get("/cache/\(key)/stats"), callbackQueue: .immediate)
        return try await withTimeout { try await call.value(as: Stats.self) }.requests
    }

    /// Every transport with every row.
    static func cases<Row: Sendable>(_ rows: [Row]) -> [(TransportUnderTest, Row)] {
        TransportUnderTest.all.flatMap { transport in rows.map { (transport, $0) } }
    }

    @Test(arguments: cases(rows))
    func rule(over transport: TransportUnderTest, _ row: Row) async throws {
        let cache = HTTPCache()
        let stored = try await answer(try await call(transport, cache: cache, query: row.query))
        #expect(stored.status == 200)
        #expect(stored.source == .network)
        let second = try await answer(try await call(transport, cache: cache, query: row.query, headers: row.headers))
        #expect(second.status == row.status)
        if second.status < 300 { #expect(second.source == row.source) }
        #expect(try await requests() == row.requests)
        switch row.body {
        case .whole:
            #expect(second.body == stored.body)
        case .network:
            #expect(second.body.count >= stored.body.count)
            #expect(second.headers["Content-Range"] == nil)
        case .empty:
            #expect(second.body.isEmpty)
            #expect(second.headers["ETag"] == "\"v1\"")
        case .slice(let range):
            let count = stored.body.count
            let bounds = (range.lowerBound < 0 ? count + range.lowerBound : range.lowerBound)...(range.upperBound < 0 ? count + range.upperBound : range.upperBound)
            #expect(second.body == stored.body.subdata(in: bounds.lowerBound..<(bounds.upperBound + 1)))
            #expect(second.headers["Content-Range"] == "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(count)")
            #expect(second.headers["Content-Length"] == String(bounds.count))
        }
    }

    /// What a stored response keeps of a field (§3.1, §3.2).
    enum Kept: Sendable {
        /// Nothing: the field is never stored.
        case nothing
        /// The stored body's length.
        case bodyLength
    }

    struct FieldRow: Sendable, CustomTestStringConvertible {
        let rule: String
        let query: [String: String]
        let field: String
        let kept: Kept
        /// Whether the second answer was revalidated by a `304` rather than served from the store.
        var revalidated = false
        var testDescription: String { rule }
    }

    static let fieldRows: [FieldRow] = [
        FieldRow(rule: "§3.1 Content-Length is stored", query: [:], field: "Content-Length", kept: .bodyLength),
        FieldRow(rule: "§3.2 a 304's Content-Length does not replace the stored one",
                 query: ["cc": "max-age=0", "length304": "999"], field: "Content-Length", kept: .bodyLength, revalidated: true),
        FieldRow(rule: "§3.1 Proxy-Authenticate is never stored", query: ["hop": "1"], field: "Proxy-Authenticate", kept: .nothing),
        FieldRow(rule: "§3.1 Proxy-Authentication-Info is never stored", query: ["hop": "1"], field: "Proxy-Authentication-Info", kept: .nothing),
        FieldRow(rule: "§3.1 a field Connection names is never stored", query: ["hop": "1"], field: "X-Hop", kept: .nothing),
        FieldRow(rule: "§3.2 a field Connection names in a 304 is not merged",
                 query: ["cc": "max-age=0", "hop": "1"], field: "X-Hop", kept: .nothing, revalidated: true),
    ]

    @Test(arguments: cases(fieldRows))
    func storedField(over transport: TransportUnderTest, _ row: FieldRow) async throws {
        let cache = HTTPCache()
        let network = try await answer(try await call(transport, cache: cache, query: row.query))
        let stored = try await answer(try await call(transport, cache: cache, query: row.query))
        #expect(stored.source == (row.revalidated ? .revalidated : .cache))
        #expect(stored.body == network.body)
        switch row.kept {
        case .nothing:
            #expect(network.headers[row.field] != nil, "the server sent it")
            #expect(stored.headers[row.field] == nil)
        case .bodyLength:
            #expect(stored.headers[row.field] == String(network.body.count))
        }
    }
}
