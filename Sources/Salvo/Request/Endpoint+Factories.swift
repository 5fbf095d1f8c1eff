import Foundation

extension Endpoint {
    /// A `GET` endpoint.
    ///
    /// Every factory takes the same `query:` and `headers:`; those that send a body take `body:`
    /// between them: `.post("/books", body: .json(book))`, `.post("/login", body: .form(fields))`.
    ///
    /// - Parameters:
    ///   - path: the path; interpolated values become single encoded segments.
    ///   - query: query items in literal order; repeated names are allowed.
    ///   - headers: header fields for this endpoint.
    public static func get(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .get, path: path, query: queryItems(query), headers: headers)
    }

    /// A `HEAD` endpoint.
    public static func head(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .head, path: path, query: queryItems(query), headers: headers)
    }

    /// A `DELETE` endpoint, with a body when the API wants one (most send none).
    public static func delete(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        body: RequestBody = .none,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        Endpoint(method: .delete, path: path, query: queryItems(query), headers: headers, body: body)
    }

    /// A `POST` endpoint sending `body`.
    public static func post(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        body: RequestBody = .none,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        Endpoint(method: .post, path: path, query: queryItems(query), headers: headers, body: body)
    }

    /// A `PUT` endpoint sending `body`.
    public static func put(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        body: RequestBody = .none,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        Endpoint(method: .put, path: path, query: queryItems(query), headers: headers, body: body)
    }

    /// A `PATCH` endpoint sending `body`.
    public static func patch(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        body: RequestBody = .none,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        Endpoint(method: .patch, path: path, query: queryItems(query), headers: headers, body: body)
    }

    static func queryItems(_ pairs: KeyValuePairs<String, String>) -> [URLQueryItem] {
        pairs.map { URLQueryItem(name: $0.key, value: $0.value) }
    }
}
