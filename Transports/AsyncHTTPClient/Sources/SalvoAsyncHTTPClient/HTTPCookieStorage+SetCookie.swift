import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCookieStorage {
    /// Stores the cookies of a response's `Set-Cookie` fields, one field at a time (a joined
    /// field is ambiguous: an `Expires` date holds a comma), as set by `url`.
    func store(setCookieFields fields: [String], from url: URL) {
        guard !fields.isEmpty else { return }
        let cookies = fields.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        setCookies(cookies, for: url, mainDocumentURL: url)
    }
}
