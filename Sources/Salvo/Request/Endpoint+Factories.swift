import Foundation

extension Endpoint {
    /// A `GET` endpoint.
    ///
    /// Every factory takes the same `query:` and `headers:`; those that send a body take `body:`,
    /// `json:` (with `encoder:`) or `form:` between them.
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

    /// A `DELETE` endpoint sending `value` as JSON.
    public static func delete(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        json value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        delete(path, query: query, body: .json(value, encoder: encoder), headers: headers)
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

    /// A `POST` endpoint sending `value` as JSON.
    public static func post(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        json value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        post(path, query: query, body: .json(value, encoder: encoder), headers: headers)
    }

    /// A `POST` endpoint sending `form` as `application/x-www-form-urlencoded`.
    public static func post(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        form: KeyValuePairs<String, String>,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        post(path, query: query, body: .form(form), headers: headers)
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

    /// A `PUT` endpoint sending `value` as JSON.
    public static func put(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        json value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        put(path, query: query, body: .json(value, encoder: encoder), headers: headers)
    }

    /// A `PUT` endpoint sending `form` as `application/x-www-form-urlencoded`.
    public static func put(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        form: KeyValuePairs<String, String>,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        put(path, query: query, body: .form(form), headers: headers)
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

    /// A `PATCH` endpoint sending `value` as JSON.
    public static func patch(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        json value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        patch(path, query: query, body: .json(value, encoder: encoder), headers: headers)
    }

    /// A `PATCH` endpoint sending `form` as `application/x-www-form-urlencoded`.
    public static func patch(
        _ path: EndpointPath,
        query: KeyValuePairs<String, String> = [:],
        form: KeyValuePairs<String, String>,
        headers: HTTPHeaders = [:]
    ) -> Endpoint {
        patch(path, query: query, body: .form(form), headers: headers)
    }

    static func queryItems(_ pairs: KeyValuePairs<String, String>) -> [URLQueryItem] {
        pairs.map { URLQueryItem(name: $0.key, value: $0.value) }
    }
}
