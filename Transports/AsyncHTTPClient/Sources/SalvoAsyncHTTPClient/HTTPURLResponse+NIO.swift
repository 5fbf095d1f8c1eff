import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOHTTP1

extension HTTPURLResponse {
    /// The response `head` describes, for a request to `url`.
    ///
    /// A field that repeats is joined with `", "` under the first spelling of its name, as
    /// `URLSession` joins them (`Set-Cookie` too: read cookies from the storage, or parse them
    /// from the response as `HTTPCookie.cookies(withResponseHeaderFields:for:)` does).
    convenience init?(_ head: HTTPResponseHead, url: URL) {
        self.init(url: url, statusCode: Int(head.status.code), httpVersion: "HTTP/\(head.version.major).\(head.version.minor)", headerFields: Self.fields(head.headers))
    }

    /// `headers` as one value per name, repeated names joined in order.
    static func fields(_ headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        var spelling: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            let key = name.lowercased()
            if let existing = spelling[key] {
                fields[existing, default: ""] += ", " + value
            } else {
                spelling[key] = name
                fields[name] = value
            }
        }
        return fields
    }
}
