import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a mock session follows a redirect, by the rules production firing follows: the method and
/// body a redirect keeps (RFC 9110 §15.4, as browsers and `URLSession` do), credentials stripped
/// when it leaves the origin (``RedirectGuard``), and at most ``RedirectGuard/maximumRedirects``
/// hops, ending with ``RedirectGuard/tooManyRedirects(at:)`` as a loop against a server does.
enum MockRedirect {
    /// The statuses followed when the response names a `Location`.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after `response` answered `request`, or nil when `response` is not a
    /// redirect to follow (another status, no or unusable `Location`, a scheme other than HTTP).
    ///
    /// 303 turns any method but `HEAD` into `GET`, and 301 and 302 turn `POST` into `GET`, both
    /// dropping the body and its `Content-Type`; 307 and 308 keep method and body.
    static func request(after request: URLRequest, response: HTTPURLResponse) -> URLRequest? {
        guard statuses.contains(response.statusCode),
              let location = response.value(forHTTPHeaderField: "Location"), !location.isEmpty,
              let target = URL(string: location, relativeTo: response.url ?? request.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil else {
            return nil
        }
        var next = request
        next.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        let becomesGet = (response.statusCode == 303 && method != "HEAD")
            || ((response.statusCode == 301 || response.statusCode == 302) && method == "POST")
        if becomesGet {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        return RedirectGuard.stripping(next, redirectedFrom: response.url ?? request.url)
    }
}

extension MockResponse {
    /// A redirect to `location` (absolute, or relative to the request's URL) that mock firing
    /// follows as production does: 302 by default; 303, and 301/302 after a `POST`, continue as
    /// `GET`; 307 and 308 keep method and body; credentials are dropped across origins.
    ///
    /// ```swift
    /// .get("/old", .redirect(to: "/new", status: 301))
    /// ```
    public static func redirect(to location: String, status: Int = 302) -> MockResponse {
        .status(status, headers: ["Location": location])
    }
}
