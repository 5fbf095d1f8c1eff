import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One stored response: what the server sent, when, and which request header values it was
/// chosen for (its `Vary` variant).
///
/// Several may be stored for one ``CacheKey``, one per variant. Headers a ``Redaction`` hides
/// (`Set-Cookie` by default), hop-by-hop fields and those `Connection` names, and a proxy's
/// authentication fields are never stored (``kept(_:hiding:)``); the variant's values of hidden
/// request headers (`Authorization`, `Cookie`) are kept as SHA-256 digests.
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
    /// `Content-Length` (it describes the stored body) and the fields never stored (``kept(_:hiding:)``).
    /// `hidden` holds the lowercased names of the fields the cache's redaction hides.
    func updated(by notModified: ResponseHead, requestTime: Date, responseTime: Date, hiding hidden: Set<String>) -> CachedResponse {
        let incoming = Self.kept(notModified.fieldsAsSent, hiding: hidden).filter { !HTTPHeaders.namesMatch($0.name, "Content-Length") }
        var merged = fields.filter { stored in !incoming.contains { HTTPHeaders.namesMatch($0.name, stored.name) } }
        merged += incoming
        var updated = self
        updated.fields = merged
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// Fields a stored response never keeps: those for one connection (RFC 9111 §3.1, RFC 9110
    /// §7.6.1), a proxy's authentication, `Content-Encoding`, as the transport decoded the body
    /// the cache keeps (RFC 9111 §3.2 lets a cache that stores the decoded body leave it), and
    /// `Set-Cookie` whatever the redaction, on purpose: a stored cookie would be served again
    /// long after the server set it, and a disk store would keep it in plain text (Docs/Caching.md).
    static let unstoredFields = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "content-encoding", "set-cookie",
    ]

    /// Whether `name` is one of the ``unstoredFields``, in any case; compared without
    /// lowercasing, as every field of every stored response is asked.
    static func isUnstored(_ name: String) -> Bool {
        unstoredFields.contains { $0.utf8.count == name.utf8.count && HTTPHeaders.namesMatch($0, name) }
    }

    /// Whether a stored response may keep the field `name` whatever the other fields say: not one
    /// of the ``unstoredFields``, and not one of `hidden` (the lowercased names a redaction hides),
    /// compared without lowercasing.
    static func keeps(_ name: String, hiding hidden: Set<String>) -> Bool {
        !isUnstored(name) && !hidden.contains { $0.utf8.count == name.utf8.count && HTTPHeaders.namesMatch($0, name) }
    }

    /// The fields of a head a stored response keeps, in order: those ``keeps(_:hiding:)`` allows,
    /// minus the fields its `Connection` names (RFC 9110 §7.6.1) and, when the head had a
    /// `Content-Encoding`, its `Content-Length` (the length of the encoded bytes, not of the
    /// decoded body kept). A miss's head (``HeadFields``) and a `304`'s merge keep the same.
    static func kept(_ fields: [Field], hiding hidden: Set<String>) -> [Field] {
        let connectionOptions = connectionOptions(ResponseHead.value(of: "Connection", in: fields))
        let isDecoded = fields.contains { HTTPHeaders.namesMatch($0.name, "Content-Encoding") }
        return fields.filter { field in
            keeps(field.name, hiding: hidden)
                && !(isDecoded && HTTPHeaders.namesMatch(field.name, "Content-Length"))
                && (connectionOptions.isEmpty || !connectionOptions.contains(field.name.lowercased()))
        }
    }

    /// The lowercased field names a `Connection` field lists: fields meant for one connection.
    static func connectionOptions(_ value: String?) -> Set<String> {
        guard let value else { return [] }
        return Set(value.split(separator: ",").map { CacheControl.trimmed($0).lowercased() }.filter { !$0.isEmpty })
    }
}
