import Foundation
import NIOHTTP1
import Salvo

extension ResponseHead {
    /// The head NIO parsed, for a request to `url`: no `HTTPURLResponse` is made unless somebody
    /// asks for one (``Salvo/ResponseHead/urlResponse``).
    ///
    /// A field that repeats is given once, its values joined with `", "` under the first spelling
    /// of its name, as `URLSession` reports it (`Set-Cookie` too: read cookies from the storage, or
    /// parse them from the response as `HTTPCookie.cookies(withResponseHeaderFields:for:)` does).
    init(_ head: HTTPResponseHead, url: URL) {
        self.init(statusCode: Int(head.status.code), headers: Self.fields(head.headers), url: url)
    }

    /// `headers` as one field per name, repeated names joined in order.
    static func fields(_ headers: NIOHTTP1.HTTPHeaders) -> Salvo.HTTPHeaders {
        var fields = Salvo.HTTPHeaders()
        for (name, value) in headers {
            if let existing = fields[name] {
                // Rare (Set-Cookie, Vary): the first spelling keeps the field.
                let spelling = fields.fields.first { $0.name.lowercased() == name.lowercased() }?.name ?? name
                fields[spelling] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        return fields
    }
}
