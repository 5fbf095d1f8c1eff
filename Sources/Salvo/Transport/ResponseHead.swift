import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The head of a response: its status, its header fields and the URL that answered, known before
/// the body.
///
/// A session reports one to its `ResponseReceiver`. `URLSession` already has an
/// `HTTPURLResponse` and hands that over (`init(_:)`); a transport that parses HTTP itself
/// (the mock, replay, an AsyncHTTPClient transport) builds the head from its fields
/// (`init(statusCode:headers:url:)`) and never pays for an `HTTPURLResponse` nobody reads:
/// ``httpURLResponse`` builds one on first use. On Linux that initializer costs about as much as the
/// rest of a request's handling in Salvo (Docs/ServerSide.md).
///
/// Its initializers are transport API (`@_spi(Transport) import Salvo`); an app reads a head:
///
/// ```swift
/// let head = try await call.response().head
/// head?.statusCode                         // 200
/// head?.headers["content-type"]            // "application/json"
/// ```
public struct ResponseHead: Sendable {
    /// Where the fields come from, and the Foundation response once there is one: one allocation
    /// per head, so a copy costs one retain.
    ///
    /// No lock of its own (a head is made for every response, and a lock costs its setup and
    /// teardown each time): the fields and a reported response never change, and the one field that
    /// does, `made`, is only touched under `ResponseHead.madeResponses`, which every head
    /// shares since a response is made from fields at most once per head, and rarely.
    private final class Content: @unchecked Sendable {
        // Safe because `fields` and `reported` are immutable and `made` is only read and written
        // inside `ResponseHead.madeResponses.withLock`.
        /// The URL that answered: kept here rather than in the head, so that copying a head (every
        /// outcome does, several times) retains one reference instead of copying a `URL`.
        let url: URL
        /// Fields a transport parsed, a name possibly repeated; empty for Foundation's response.
        let fields: [HTTPHeaders.Field]
        /// The response Foundation reported; `nil` for parsed fields.
        let reported: URLResponse?
        /// The response made from ``fields`` the first time it was asked for.
        var made: URLResponse?

        init(url: URL, fields: [HTTPHeaders.Field], reported: URLResponse? = nil) {
            self.url = url
            self.fields = fields
            self.reported = reported
        }
    }

    /// Guards every parsed head's `Content.made`; its value counts the responses kept there. (Over
    /// an empty value the lock's storage would share its address with the lock, which the thread
    /// sanitizer reports as a race.)
    private static let madeResponses = Locked(0)

    /// The status code; 200 for a response that is not HTTP (a `file:` URL's).
    public let statusCode: Int
    /// The URL that answered: the request's, or the last redirect's.
    public var url: URL { content.url }
    private let content: Content
    /// Where the response came from and how old it is, when a ``CachingSession`` delivered it;
    /// `nil` from any other session.
    public internal(set) var cacheStatus: CacheStatus?

    /// A head from header fields a transport parsed.
    @_spi(Transport) public init(statusCode: Int, headers: HTTPHeaders = [:], url: URL) {
        self.init(statusCode: statusCode, fields: headers.fields, url: url)
    }

    /// A head from the header fields as the server sent them, in order; a name may repeat.
    ///
    /// Nothing is copied or compared until a field is read: ``headers`` and
    /// ``value(forField:)`` give a repeated field once, its values joined with `", "` (RFC 9110
    /// §5.3) under the first spelling of its name, as `URLSession` reports it.
    @_spi(Transport) public init(statusCode: Int, fields: [HTTPHeaders.Field], url: URL) {
        self.statusCode = statusCode
        content = Content(url: url, fields: fields)
    }

    /// The head of a response Foundation reported; `nil` when it has no URL.
    ///
    /// ``urlResponse`` is `response` itself.
    @_spi(Transport) public init?(_ response: URLResponse) {
        guard let url = response.url else { return nil }
        statusCode = (response as? HTTPURLResponse)?.statusCode ?? 200
        content = Content(url: url, fields: [], reported: response)
    }

    /// Whether the fields came from a transport rather than from Foundation's response.
    private var isParsed: Bool { content.reported == nil }

    /// The header fields, in the order the server sent them.
    public var headers: HTTPHeaders {
        if isParsed { return Self.joined(content.fields) }
        return (content.reported as? HTTPURLResponse).map(HTTPHeaders.init) ?? [:]
    }

    /// The header fields as they arrived, a repeated name possibly more than once, read in one
    /// pass: a transport's fields as parsed, Foundation's from `allHeaderFields` once.
    ///
    /// What the cache keeps of a stored response, read when a hit, a `304` or the disk store first
    /// needs it (a miss looks up only the fields it decides on). ``headers`` dedupes the names
    /// (quadratic in the fields), and this costs ~16k instructions on Linux (benchmark 13e).
    var fieldsAsSent: [HTTPHeaders.Field] {
        if isParsed { return content.fields }
        guard let all = (content.reported as? HTTPURLResponse)?.allHeaderFields else { return [] }
        var read: [HTTPHeaders.Field] = []
        read.reserveCapacity(all.count)
        for (key, value) in all {
            guard let name = key.base as? String else { continue }
            read.append(HTTPHeaders.Field(name: name, value: value as? String ?? "\(value)"))
        }
        return read
    }

    /// The fields a transport parsed, as they are; `nil` for Foundation's response, whose fields
    /// are only read through ``fieldsAsSent``. The cache counts a stored head's bytes with them.
    var parsedFields: [HTTPHeaders.Field]? { isParsed ? content.fields : nil }

    /// The value of the field named `name`, in any case.
    @_spi(Transport) public func value(forField name: String) -> String? {
        if isParsed { return Self.value(of: name, in: content.fields) }
        return (content.reported as? HTTPURLResponse)?.value(forHTTPHeaderField: name)
    }

    /// The head as Foundation's response: the one the session reported, or one made from the
    /// fields the first time it is asked for.
    @_spi(Transport) public var urlResponse: URLResponse {
        if let reported = content.reported { return reported }
        if let made = Self.madeResponses.withLock({ _ in content.made }) { return made }
        // Made outside the shared lock (it is the slow part); the first one kept wins, so every
        // reader gets the same response.
        let response: URLResponse = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: Self.joined(content.fields).dictionary)
            // Foundation refused the status: the head's fields still say what it was.
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
        return Self.madeResponses.withLock { count in
            if let made = content.made { return made }
            content.made = response
            count &+= 1
            return response
        }
    }

    /// The head as Foundation's `HTTPURLResponse`: the one the session reported, or one made from
    /// the fields the first time it is asked for; `nil` for a response that is not HTTP.
    public var httpURLResponse: HTTPURLResponse? { urlResponse as? HTTPURLResponse }

    /// Whether the status is in 200..<300.
    var isSuccess: Bool { (200..<300).contains(statusCode) }

    /// Whether the head is of an HTTP response: `false` only for a non-HTTP `URLResponse`.
    var isHTTP: Bool {
        isParsed || content.reported is HTTPURLResponse
    }

    /// The body's length that `Content-Length` announces, when it does.
    var expectedContentLength: Int64? {
        guard isParsed else {
            let length = content.reported?.expectedContentLength ?? -1
            return length >= 0 ? length : nil
        }
        return value(forField: "Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// `fields` with each repeated name once, its values joined in order.
    private static func joined(_ fields: [HTTPHeaders.Field]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for field in fields where !headers.contains(field.name) {
            headers[field.name] = value(of: field.name, in: fields)
        }
        return headers
    }

    /// Whether `field` is named `name`, in any case. Names of different lengths are told apart
    /// without comparing them: field names are ASCII tokens, and the cache asks each stored
    /// field for several names on every miss.
    static func hasName(_ field: HTTPHeaders.Field, _ name: String) -> Bool {
        field.name.utf8.count == name.utf8.count && HTTPHeaders.namesMatch(field.name, name)
    }

    /// The value of the field named `name` in `fields`: repeated ones joined with `", "`.
    static func value(of name: String, in fields: [HTTPHeaders.Field]) -> String? {
        var value: String?
        for field in fields where hasName(field, name) {
            value = value.map { $0 + ", " + field.value } ?? field.value
        }
        return value
    }
}
