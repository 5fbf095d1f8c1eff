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
    /// One header field, as stored: the head's own type, so a miss stores a transport's fields
    /// without copying them into another.
    typealias Field = HTTPHeaders.Field

    /// Where the fields are: given (decoded, merged, made in tests), or a network head's read when
    /// first needed (a miss).
    private enum StoredFields: Sendable {
        case given([Field])
        case head(HeadFields)
    }

    /// The response's status code.
    var statusCode: Int
    /// The response's header fields, in order, as stored.
    var fields: [Field] {
        get {
            switch storedFields {
            case .given(let fields): fields
            case .head(let head): head.fields
            }
        }
        set { storedFields = .given(newValue) }
    }
    private var storedFields: StoredFields
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

    /// A field as the disk store's metadata spells it: `{"name": …, "value": …}`.
    private struct StoredField: Codable {
        var name: String
        var value: String
    }

    init(statusCode: Int, fields: [Field], url: URL, requestTime: Date, responseTime: Date, variant: [String: String?], body: Data) {
        self.init(statusCode: statusCode, storedFields: .given(fields), url: url, requestTime: requestTime, responseTime: responseTime, variant: variant, body: body)
    }

    /// A response whose fields are `head`'s, read when first needed.
    init(statusCode: Int, head: HeadFields, url: URL, requestTime: Date, responseTime: Date, variant: [String: String?], body: Data) {
        self.init(statusCode: statusCode, storedFields: .head(head), url: url, requestTime: requestTime, responseTime: responseTime, variant: variant, body: body)
    }

    private init(statusCode: Int, storedFields: StoredFields, url: URL, requestTime: Date, responseTime: Date, variant: [String: String?], body: Data) {
        self.statusCode = statusCode
        self.storedFields = storedFields
        self.url = url
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.variant = variant
        self.body = body
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        statusCode = try container.decode(Int.self, forKey: .statusCode)
        storedFields = .given(try container.decode([StoredField].self, forKey: .fields).map { Field(name: $0.name, value: $0.value) })
        url = try container.decode(URL.self, forKey: .url)
        requestTime = try container.decode(Date.self, forKey: .requestTime)
        responseTime = try container.decode(Date.self, forKey: .responseTime)
        variant = try container.decode([String: String?].self, forKey: .variant)
        body = Data()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusCode, forKey: .statusCode)
        try container.encode(fields.map { StoredField(name: $0.name, value: $0.value) }, forKey: .fields)
        try container.encode(url, forKey: .url)
        try container.encode(requestTime, forKey: .requestTime)
        try container.encode(responseTime, forKey: .responseTime)
        try container.encode(variant, forKey: .variant)
    }

    // Equal and hashed by what is stored, whichever way the fields are held.
    static func == (lhs: CachedResponse, rhs: CachedResponse) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.url == rhs.url && lhs.requestTime == rhs.requestTime
            && lhs.responseTime == rhs.responseTime && lhs.variant == rhs.variant && lhs.body == rhs.body
            && lhs.fields == rhs.fields
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(statusCode)
        hasher.combine(fields)
        hasher.combine(url)
        hasher.combine(requestTime)
        hasher.combine(responseTime)
        hasher.combine(variant)
        hasher.combine(body)
    }

    /// The stored header fields.
    var headers: HTTPHeaders { HTTPHeaders(fields.map { ($0.name, $0.value) }) }

    /// The value of the stored field `name`, repeated fields joined with `", "`; a miss's head
    /// answers without reading its other fields.
    func value(forField name: String) -> String? {
        switch storedFields {
        case .given(let fields): ResponseHead.value(of: name, in: fields)
        case .head(let head): head.value(forField: name)
        }
    }

    /// The response's `Cache-Control` directives.
    var cacheControl: CacheControl { CacheControl(value(forField: "Cache-Control")) }

    /// About how many bytes the response takes in a store: the body, the fields, the URL, and
    /// ``overhead`` for what holds them.
    var cost: Int {
        let fieldBytes = switch storedFields {
        case .given(let fields): Self.byteCount(of: fields)
        case .head(let head): head.byteCount
        }
        return body.count + url.absoluteString.utf8.count + Self.overhead + fieldBytes
    }

    /// About how many bytes `fields` take: their names and values, and 16 bytes each.
    static func byteCount(of fields: [Field]) -> Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 16 }
    }

    /// The heap a stored response takes beyond its bytes: the URL object, the arrays, dates and
    /// variant, the store's entry and allocator rounding. Benchmark 13d measured ~0.7 KiB a
    /// response (a 4 MiB store of 40 KiB bodies held 4.07 MiB when this was 64 bytes).
    static let overhead = 1_024

    /// Whether the response has a validator to send in a conditional request.
    var hasValidator: Bool { value(forField: "ETag") != nil || value(forField: "Last-Modified") != nil }

    /// The response as a head `cacheStatus` marks, with an `Age` field (RFC 9111 §5.1).
    func head(status: CacheStatus) -> ResponseHead {
        var fields = fields.filter { !HTTPHeaders.namesMatch($0.name, "Age") }
        fields.append(HTTPHeaders.Field(name: "Age", value: String(Int(status.age.rounded(.down)))))
        var head = ResponseHead(statusCode: statusCode, fields: fields, url: url)
        head.cacheStatus = status
        return head
    }

    /// This response with the fields of a `304 Not Modified` merged in (RFC 9111 §3.2) and its
    /// times renewed: a field the 304 carries replaces every stored field of that name, except
    /// the framing fields that describe the stored body.
    /// `hidden` holds the lowercased names of the fields the cache's redaction hides (``keeps(_:hiding:)``).
    func updated(by notModified: ResponseHead, requestTime: Date, responseTime: Date, hiding hidden: Set<String>) -> CachedResponse {
        let incoming = notModified.fieldsAsSent.filter { Self.keeps($0.name, hiding: hidden) }
        var merged = fields.filter { stored in !incoming.contains { HTTPHeaders.namesMatch($0.name, stored.name) } }
        merged += incoming
        var updated = self
        updated.fields = merged
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// Fields that describe the message rather than the resource: never taken from a 304, never stored.
    static let framingFields = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection",
        "te", "trailer", "upgrade", "content-encoding",
    ]

    /// Whether `name` is one of the ``framingFields``, in any case; compared without
    /// lowercasing, as every field of every stored response is asked.
    static func isFraming(_ name: String) -> Bool {
        framingFields.contains { $0.utf8.count == name.utf8.count && HTTPHeaders.namesMatch($0, name) }
    }

    /// Whether a stored response keeps the field `name` of a head: not a framing field, and not
    /// one of `hidden` (the lowercased names a redaction hides), compared without lowercasing.
    /// A miss's head (``HeadFields``) and a `304`'s merge keep the same fields.
    static func keeps(_ name: String, hiding hidden: Set<String>) -> Bool {
        !isFraming(name) && !hidden.contains { $0.utf8.count == name.utf8.count && HTTPHeaders.namesMatch($0, name) }
    }
}
