import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PagingStrategy {
    /// RFC 8288 `Link` headers: the first page is the call as given; each next page is the target
    /// of the link with `rel="next"`, resolved against the page's URL when relative.
    ///
    /// The next page is the pager's own call with the link's path and query, so it keeps the
    /// call's method, headers, actions and firing function. The server's base path is not added
    /// again, and query items equal to the server's `defaultQuery` are not sent twice. The list
    /// ends when no link has the relation; when the first page has none, each ``LoggingAction`` of
    /// the call says so once. Read the other relations (`last`, `prev`, `first`) with
    /// ``NetworkResponse/links``.
    ///
    /// A link to another scheme, host or port than the call's server fails with
    /// ``NetworkError/invalidRequest(_:)`` and sends nothing: credentials and actions belong to
    /// the call's server and must not follow a link elsewhere.
    ///
    /// - Parameter relation: the relation type that names the next page.
    public static func linkHeader(relation: String = "next") -> PagingStrategy {
        PagingStrategy(
            firstPage: { base in base },
            nextPage: { page throws(NetworkError) in
                guard let target = page.response.links.target(forRelation: relation) else { return nil }
                return try call(page.baseCall, following: target, from: page)
            },
            reading: .link(relation: relation)
        )
    }

    /// `base` aimed at `target`, which must be on the same origin as `base.server`.
    private static func call(_ base: NetCall, following target: String, from page: LoadedPage) throws(NetworkError) -> NetCall {
        let pageURL = page.response.urlResponse?.url ?? (try? page.call.urlRequest())?.url
        guard let url = URL(string: target, relativeTo: pageURL)?.absoluteURL,
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest(RequestProblem(.url, "the Link header's next target \"\(target)\" is not a valid URL"))
        }
        try checkOrigin(of: components, target: target, against: base.server)
        var endpoint = base.endpoint
        endpoint.path = EndpointPath(percentEncoded: components.percentEncodedPath)
        endpoint.basePath = ""
        endpoint.query = queryItems(components.percentEncodedQuery)
        for item in base.server.defaultQuery {
            if let index = endpoint.query.firstIndex(of: item) { endpoint.query.remove(at: index) }
        }
        var call = base
        call.endpoint = endpoint  // one assignment: a call rebuilds its request on each
        return call
    }

    private static func checkOrigin(of components: URLComponents, target: String, against server: ServerConfig) throws(NetworkError) {
        let link = Origin(scheme: components.scheme ?? "", host: components.host ?? "", port: components.port)
        guard link == Origin(scheme: server.scheme, host: server.host, port: server.port) else {
            let origin = "\(server.scheme.lowercased())://\(server.host)" + (server.port.map { ":\($0)" } ?? "")
            throw .invalidRequest(RequestProblem(.url, "the Link header's next page \"\(target)\" is not on the call's server \(origin); Salvo follows next links only on the call's own scheme, host and port"))
        }
    }

    /// Query items of a percent-encoded query, decoded as a form would be (`+` is a space); the
    /// endpoint encodes them again when it builds the request.
    private static func queryItems(_ query: String?) -> [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return FormField.fields(in: Substring(query), omittingEmpty: true).map { URLQueryItem(name: $0.name, value: $0.value) }
    }
}
