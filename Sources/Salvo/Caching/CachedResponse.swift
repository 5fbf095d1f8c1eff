import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One stored response: what the server sent, when, and which request header values it was
/// chosen for (its `Vary` variant).
///
/// Several may be stored for one ``CacheKey``, one per variant. Headers a ``Redaction`` hides
/// (`Set-Cookie` by default) and hop-by-hop fields are never stored; the variant's values of
/// hidden request headers (`Authorization`, `Cookie`) are kept as SHA-256 digests.
struct CachedResponse: Sendable, Hashable, Codable {
    /// One header field, as stored.
    struct Field: Sendable, Hashable, Codable {
        var name: String
        var value: String
    }

    /// The response's status code.
    var statusCode: Int
    /// The response's header fields, in order, as stored.
    var fields: [Field]
    /// The URL that answered.
    var url: URL
    /// When the request that got this response was sent (RFC 9111 §4.2.3's `request_time`).
    var requestTime: Date
    /// When the response arrived (`response_time`).
    var responseTime: Date
    /// For each field the response's `Vary` names (lowercased), the request's value as stored,
    /// or `nil` when the request had no such field.
    var variant: [String: String?]
    /// The body; not part of the encoded metadata (the disk store writes it raw).
    var body: Data

    private enum CodingKeys: String, CodingKey {
        case statusCode, fields, url, requestTime, responseTime, variant
    }

    init(statusCode: Int, fields: [Field], url: URL, requestTime: Date, responseTime: Date, variant: [String: String?], body: Data) {
        self.statusCode = statusCode
        self.fields = fields
        self.url = url
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.variant = variant
        self.body = body
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        statusCode = try container.decode(Int.self, forKey: .statusCode)
        fields = try container.decode([Field].self, forKey: .fields)
        url = try container.decode(URL.self, forKey: .url)
        requestTime = try container.decode(Date.self, forKey: .requestTime)
        responseTime = try container.decode(Date.self, forKey: .responseTime)
        variant = try container.decode([String: String?].self, forKey: .variant)
        body = Data()
    }

    /// The stored header fields.
    var headers: HTTPHeaders { HTTPHeaders(fields.map { ($0.name, $0.value) }) }

    /// The value of the stored field `name`, repeated fields joined with `", "`.
    func value(forField name: String) -> String? {
        var value: String?
        for field in fields where HTTPHeaders.namesMatch(field.name, name) {
            value = value.map { $0 + ", " + field.value } ?? field.value
        }
        return value
    }

    /// The response's `Cache-Control` directives.
    var cacheControl: CacheControl { CacheControl(value(forField: "Cache-Control")) }

    /// About how many bytes the response takes in a store: the body, the fields, the URL, and
    /// ``overhead`` for what holds them.
    var cost: Int {
        body.count + url.absoluteString.utf8.count + fields.reduce(Self.overhead) { $0 + $1.name.utf8.count + $1.value.utf8.count + 16 }
    }

    /// The heap a stored response takes beyond its bytes: the URL object, the arrays, dates and
    /// variant, the store's entry and allocator rounding. Benchmark 13d measured ~0.7 KiB a
    /// response (a 4 MiB store of 40 KiB bodies held 4.07 MiB when this was 64 bytes).
    static let overhead = 1_024

    /// Whether the response has a validator to send in a conditional request.
    var hasValidator: Bool { value(forField: "ETag") != nil || value(forField: "Last-Modified") != nil }

    /// The response as a head `cacheStatus` marks, with an `Age` field (RFC 9111 §5.1).
    func head(status: CacheStatus) -> ResponseHead {
        var fields = fields.filter { !HTTPHeaders.namesMatch($0.name, "Age") }.map { HTTPHeaders.Field(name: $0.name, value: $0.value) }
        fields.append(HTTPHeaders.Field(name: "Age", value: String(Int(status.age.rounded(.down)))))
        var head = ResponseHead(statusCode: statusCode, fields: fields, url: url)
        head.cacheStatus = status
        return head
    }

    /// This response with the fields of a `304 Not Modified` merged in (RFC 9111 §3.2) and its
    /// times renewed: a field the 304 carries replaces every stored field of that name, except
    /// the framing fields that describe the stored body.
    func updated(by notModified: ResponseHead, requestTime: Date, responseTime: Date, dropping isDropped: (String) -> Bool) -> CachedResponse {
        let incoming = notModified.headers.fields.filter { field in
            !Self.framingFields.contains(field.name.lowercased()) && !isDropped(field.name)
        }
        var merged = fields.filter { stored in !incoming.contains { HTTPHeaders.namesMatch($0.name, stored.name) } }
        merged += incoming.map { Field(name: $0.name, value: $0.value) }
        var updated = self
        updated.fields = merged
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// Fields that describe the message rather than the resource: never taken from a 304, never stored.
    static let framingFields: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection",
        "te", "trailer", "upgrade", "content-encoding",
    ]
}
