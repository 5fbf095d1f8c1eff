import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which header fields, query items and body fields hold secrets, and how to hide them before
/// anything is written to disk or a log.
///
/// One value serves the logging action, cURL output and recorded fixtures. Its query keys name
/// both query items and body fields: form fields, and JSON fields at any depth. Names compare
/// case-insensitively (header names by HTTP rules; keys too, because hiding a `Token` that was
/// meant to be `token` is the safe mistake). A hidden value becomes `<redacted>`; the name
/// stays, so a reader still sees that the field was sent.
///
/// ```swift
/// let redaction = Redaction.default.adding(headers: ["X-Api-Key"], queryKeys: ["session"])
/// let url = request.url.map(redaction.redact)       // …?access_token=%3Credacted%3E
/// let headers = redaction.redact(endpoint.headers)  // X-Api-Key: <redacted>
/// logger.debug("\(request.curlCommand(redaction: redaction))")
/// ```
public struct Redaction: Sendable, Hashable {
    /// What a hidden value is replaced with.
    static let placeholder = "<redacted>"

    /// Header names whose values are hidden, lowercased.
    let headers: Set<String>
    /// Query item and body field names whose values are hidden, lowercased.
    let queryKeys: Set<String>

    /// A redaction hiding the given header fields and query items (names in any case).
    public init(headers: Set<String> = [], queryKeys: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryKeys = Set(queryKeys.map { $0.lowercased() })
    }

    /// Hides nothing: for output only you will read, such as a `curl` command to paste into your own terminal.
    public static let none = Redaction()

    /// Hides the headers `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`, and the
    /// query items and body fields that conventionally carry secrets: `access_token`,
    /// `refresh_token`, `id_token`, `client_secret`, `api_key`, `apikey`, `password`, `token` and
    /// `signature`.
    public static let `default` = Redaction(
        headers: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"],
        queryKeys: ["access_token", "refresh_token", "id_token", "client_secret", "api_key", "apikey", "password", "token", "signature"]
    )

    /// This redaction also hiding `headers` and `queryKeys`.
    public func adding(headers: Set<String> = [], queryKeys: Set<String> = []) -> Redaction {
        Redaction(headers: self.headers.union(headers), queryKeys: self.queryKeys.union(queryKeys))
    }

    /// Whether the header field `name` is hidden.
    func hidesHeader(_ name: String) -> Bool {
        headers.contains(name.lowercased())
    }

    /// Whether the query item or body field `name` is hidden.
    func hidesQueryKey(_ name: String) -> Bool {
        queryKeys.contains(name.lowercased())
    }

    /// `headers` with every hidden field's value replaced, order and names kept.
    public func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.fields.map { ($0.name, hidesHeader($0.name) ? Self.placeholder : $0.value) })
    }

    /// `url` with the value of every hidden query item replaced by the percent-encoded placeholder.
    ///
    /// Everything else in the URL, including the order and encoding of other items, is kept byte for byte.
    public func redact(_ url: URL) -> URL {
        guard !queryKeys.isEmpty, Self.hasQuery(url),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let query = components.percentEncodedQuery else { return url }
        var didHide = false
        let items = FormField.fields(in: Substring(query)).map { field -> String in
            guard field.rawValue != nil, hidesQueryKey(field.name) else { return String(field.raw) }
            didHide = true
            return field.rawName + "=" + Self.encodedPlaceholder
        }
        // Rebuilding the URL costs more than the rest (replay and recording name every request).
        guard didHide else { return url }
        components.percentEncodedQuery = items.joined(separator: "&")
        return components.url ?? url
    }

    /// `request` with hidden header fields and query items replaced; the body is left as it is.
    func redact(_ request: URLRequest) -> URLRequest {
        var redacted = request
        if let url = request.url { redacted.url = redact(url) }
        for (name, _) in request.allHTTPHeaderFields ?? [:] where hidesHeader(name) {
            redacted.setValue(Self.placeholder, forHTTPHeaderField: name)
        }
        return redacted
    }

    /// This redaction also hiding the headers the auth actions of `call` set, when it hides
    /// `Authorization`: they carry the same secret for that call. Another call's are not hidden.
    func hidingCredentials(of call: NetCall) -> Redaction {
        guard hidesHeader("Authorization") else { return self }
        let credentials = AuthTokenAction.headers(setBy: call.server.actions + call.actions)
        return credentials.isSubset(of: headers) ? self : adding(headers: credentials)
    }

    private static let encodedPlaceholder = "%3Credacted%3E"

    /// Whether `url` has a query, read from the parsed URL where the platform allows rather than
    /// parsed again by `URLComponents`.
    private static func hasQuery(_ url: URL) -> Bool {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            return url.query(percentEncoded: true) != nil
        }
        return true
    }
}
