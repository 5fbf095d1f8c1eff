import Foundation

/// What a stored response answers a request with, when the request asks for less than the whole
/// response: a `304` for the app's own conditional request (RFC 9111 §4.3.2), a `206` part for a
/// `Range` (§3.4).
extension CachedResponse {
    /// This response as the answer to a request with the header fields `request`: a `304 Not
    /// Modified` when the request's own `If-None-Match` matches its `ETag` (or, without
    /// `If-None-Match`, its `If-Modified-Since` is no earlier than its `Last-Modified`), the part a
    /// `Range` asks for as a `206 Partial Content`, else itself.
    ///
    /// A request whose `Range` this response cannot answer never gets here: see ``canAnswer(_:method:)``.
    func answer(to request: [String: String]) -> CachedResponse {
        if isNotModified(for: request) { return notModified }
        if let range = Self.field("Range", in: request).flatMap({ Self.byteRange($0, count: body.count) }) { return part(range) }
        return self
    }

    /// Whether this response can answer a request with the header fields `request` and `method`
    /// from the store: always, unless it has a `Range` and this is not a complete `200` (its
    /// `Content-Length` is its body's) of a GET that one range of satisfiable bytes, without
    /// `If-Range`, slices (§3.4). A request it cannot answer goes to the network as if nothing were stored.
    func canAnswer(_ request: [String: String], method: String) -> Bool {
        guard let range = Self.field("Range", in: request) else { return true }
        return method == "GET" && statusCode == 200 && Self.field("If-Range", in: request) == nil
            && value(forField: "Content-Length") == String(body.count) && Self.byteRange(range, count: body.count) != nil
    }

    /// Whether the request's own validators match this response (§4.3.2; RFC 9110 §13.1.2,
    /// §13.1.3): `If-None-Match` by weak comparison (`*` matches any), else `If-Modified-Since`
    /// against `Last-Modified`, or `Date`, or when it arrived.
    private func isNotModified(for request: [String: String]) -> Bool {
        if let ifNoneMatch = Self.field("If-None-Match", in: request) {
            let tags = ifNoneMatch.split(separator: ",").map { Self.opaqueTag(CacheControl.trimmed($0)) }
            if tags.contains("*") { return true }
            guard let etag = value(forField: "ETag") else { return false }
            return tags.contains(Self.opaqueTag(CacheControl.trimmed(Substring(etag))))
        }
        guard let since = Self.field("If-Modified-Since", in: request).flatMap({ HTTPDate.date($0) }) else { return false }
        let modified = value(forField: "Last-Modified").flatMap { HTTPDate.date($0) } ?? value(forField: "Date").flatMap { HTTPDate.date($0) } ?? responseTime
        return modified <= since
    }

    /// An entity tag without its weakness prefix, which weak comparison ignores.
    private static func opaqueTag(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }

    /// Fields a `304` carries of the stored response (RFC 9110 §15.4.5).
    private static let notModifiedFields = ["cache-control", "content-location", "date", "etag", "expires", "vary"]

    /// This response as a `304`: no body, the fields RFC 9110 §15.4.5 lists.
    private var notModified: CachedResponse {
        var answer = self
        answer.statusCode = 304
        answer.fields = fields.filter { field in Self.notModifiedFields.contains { HTTPHeaders.namesMatch($0, field.name) } }
        answer.body = Data()
        return answer
    }

    /// The bytes at `range` of this response as a `206`, with its `Content-Range` and `Content-Length`.
    private func part(_ range: ClosedRange<Int>) -> CachedResponse {
        var answer = self
        answer.statusCode = 206
        answer.fields = fields.filter { !HTTPHeaders.namesMatch($0.name, "Content-Length") } + [
            Field(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound)/\(body.count)"),
            Field(name: "Content-Length", value: String(range.count)),
        ]
        answer.body = body.subdata(in: (body.startIndex + range.lowerBound)..<(body.startIndex + range.upperBound + 1))
        return answer
    }

    /// The bytes of a body of `count` bytes that `Range: bytes=…` asks for, when it asks for one
    /// satisfiable range (`first-last`, `first-`, `-suffix`); `nil` otherwise (RFC 9110 §14.1.2).
    static func byteRange(_ value: String, count: Int) -> ClosedRange<Int>? {
        let value = CacheControl.trimmed(Substring(value))
        guard value.hasPrefix("bytes="), count > 0 else { return nil }
        let spec = CacheControl.trimmed(value.dropFirst("bytes=".count))
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let suffix = digits(last), suffix > 0 else { return nil }
            return max(0, count - suffix)...(count - 1)
        }
        guard let start = digits(first), start < count else { return nil }
        if last.isEmpty { return start...(count - 1) }
        guard let end = digits(last), end >= start else { return nil }
        return start...min(end, count - 1)
    }

    /// `text` as a non-negative decimal number, when it is only digits.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    /// The value of the request field `name`, in any case.
    static func field(_ name: String, in request: [String: String]) -> String? {
        request.first { HTTPHeaders.namesMatch($0.key, name) }?.value
    }
}
