import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one set of rules every Salvo session follows a redirect by: `URLSession` on every platform
/// (``URLSessionExchange``), the mock session, and transports in other packages through
/// `URLRequest.redirected(by:redirectCount:credentialHeaders:)`.
enum Redirect {
    /// Darwin's and swift-corelibs-foundation's redirect limit.
    static let maximumCount = 20

    /// Whether `status` is one followed when the response names a usable `Location`: 301, 302,
    /// 303, 307 or 308. A `switch`, not a `Set`: every response of every transport asks, and
    /// hashing cost more than the rest of the check.
    static func follows(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: return true
        default: return false
        }
    }

    /// The error a redirect chain past ``maximumCount`` ends with, failing at `url`.
    static func tooManyRedirects(at url: URL?) -> URLError {
        URLError(.httpTooManyRedirects, userInfo: [
            NSLocalizedDescriptionKey: "more than \(maximumCount) redirects",
            NSURLErrorFailingURLErrorKey: url as Any,
        ])
    }

    /// The header fields that carry credentials in every request, lowercased.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The names of `request`'s header fields that never leave their origin, as the request spells
    /// them: ``credentialHeaders`` and `alsoProtected` (lowercased), such as an auth action's header.
    static func protectedFieldNames(in request: URLRequest, alsoProtected: Set<String>) -> [String] {
        guard let fields = request.allHTTPHeaderFields, !fields.isEmpty else { return [] }
        return fields.keys.filter { credentialHeaders.contains($0.lowercased()) || alsoProtected.contains($0.lowercased()) }
    }

    /// `request` without protected headers (see ``protectedFieldNames(in:alsoProtected:)``) when it
    /// leaves the origin of `previous`.
    static func stripping(_ request: URLRequest, redirectedFrom previous: URL?, alsoProtected: Set<String>) -> URLRequest {
        guard let from = previous, let to = request.url, let scheme = from.scheme, let host = from.host,
              !Origin(scheme: scheme, host: host, port: from.port).matches(to) else {
            return request
        }
        var stripped = request
        for name in protectedFieldNames(in: request, alsoProtected: alsoProtected) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    /// Where `response` sends a request to `url`: its `Location`, resolved against `url`, when it
    /// is an HTTP or HTTPS URL with a host.
    static func target(of response: ResponseHead, from url: URL?) -> URL? {
        guard let location = response.value(forField: "Location"), !location.isEmpty,
              let target = URL(string: location, relativeTo: url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = target.host, !host.isEmpty else {
            return nil
        }
        return target
    }
}

extension URLRequest {
    /// The request to send next when `response` redirects this one, by the rules every Salvo
    /// session follows, or `nil` when `response` is the answer.
    ///
    /// A transport that follows redirects itself (rather than letting its HTTP client do it)
    /// calls this for each response, with the exchange's ``ExchangeOptions/credentialHeaders``,
    /// so that it follows them as `URLSession` and Salvo's mock do:
    ///
    /// - **Method and body.** 303 turns every method but `HEAD` into `GET`, and 301 and 302 turn
    ///   `POST` into `GET`, dropping the body, `Content-Type` and `Content-Length`. 307, 308, and
    ///   301 or 302 after any other method keep method and body: a body of Salvo's own streamed
    ///   from files (multipart, `.file`) gets a new stream that starts again at its first byte.
    /// - **Credentials stay on their origin.** When the new URL has another scheme, host or port,
    ///   `Authorization`, `Proxy-Authorization`, `Cookie` and the headers in `credentialHeaders`
    ///   are removed.
    /// - **At most 20 redirects**, as `URLSession` on every platform.
    ///
    /// ```swift
    /// func sendFollowingRedirects(
    ///     _ original: URLRequest,
    ///     send: (URLRequest) async throws -> (Data, HTTPURLResponse)
    /// ) async throws -> (Data, HTTPURLResponse) {
    ///     var request = original, redirects = 0
    ///     while true {
    ///         let (body, response) = try await send(request)
    ///         guard let next = try request.redirected(by: response, redirectCount: redirects) else {
    ///             return (body, response)
    ///         }
    ///         request = next
    ///         redirects += 1
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - response: the response to this request; its `url`, else this request's, is the base of
    ///     a relative `Location` and the origin credentials are kept on.
    ///   - redirectCount: how many redirects the exchange has followed before `response`.
    ///   - credentialHeaders: the request's other headers that carry credentials, in any case:
    ///     pass the exchange's ``ExchangeOptions/credentialHeaders``, which name the header of
    ///     each ``AuthTokenAction`` of the call being fired.
    /// - Returns: the request for the `Location`, or `nil` when `response` is not a redirect to
    ///   follow: a status other than 301, 302, 303, 307 or 308, or no `Location` that is an HTTP(S) URL.
    /// - Throws: `URLError(.httpTooManyRedirects)` when 20 redirects were already followed;
    ///   `URLError(.requestBodyStreamExhausted)` when the body must go again but is an
    ///   `InputStream` that cannot start over (as `URLSession` fails such a redirect).
    @_spi(Transport) public func redirected(
        by response: HTTPURLResponse,
        redirectCount: Int,
        credentialHeaders: Set<String> = []
    ) throws(URLError) -> URLRequest? {
        let answered = response.url ?? url
        guard let head = ResponseHead(response) ?? answered.map({ ResponseHead(statusCode: response.statusCode, headers: HTTPHeaders(response), url: $0) }) else {
            return nil
        }
        return try redirected(by: head, redirectCount: redirectCount, credentialHeaders: credentialHeaders)
    }

    /// The request to send next when the response with `head` redirects this one, by the rules
    /// of ``redirected(by:redirectCount:credentialHeaders:)-(HTTPURLResponse,_,_)``: for a
    /// transport that parses the head itself.
    @_spi(Transport) public func redirected(
        by head: ResponseHead,
        redirectCount: Int,
        credentialHeaders: Set<String> = []
    ) throws(URLError) -> URLRequest? {
        guard Redirect.follows(head.statusCode), let target = Redirect.target(of: head, from: head.url) else {
            return nil
        }
        guard redirectCount < Redirect.maximumCount else { throw Redirect.tooManyRedirects(at: target) }
        var next = self
        next.url = target
        let method = (httpMethod ?? "GET").uppercased()
        let becomesGet = (head.statusCode == 303 && method != "HEAD")
            || ((head.statusCode == 301 || head.statusCode == 302) && method == "POST")
        if becomesGet {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        } else if let stream = httpBodyStream {
            guard let restartable = stream as? BodyStream else {
                throw URLError(.requestBodyStreamExhausted, userInfo: [
                    NSLocalizedDescriptionKey: "a \(head.statusCode) redirect must send the body again, but its InputStream cannot start over",
                    NSURLErrorFailingURLErrorKey: target,
                ])
            }
            next.httpBodyStream = restartable.restarted()
        }
        return Redirect.stripping(next, redirectedFrom: head.url, alsoProtected: Set(credentialHeaders.map { $0.lowercased() }))
    }
}
