import Foundation

extension Endpoint {
    /// A `GET` endpoint.
    ///
    /// - Parameters:
    ///   - path: the path; interpolated values become single encoded segments.
    ///   - query: query items in literal order; repeated names are allowed.
    ///   - headers: header fields for this endpoint.
    public static func get(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .get, path: path, query: queryItems(query), headers: headers)
    }

    /// A `DELETE` endpoint.
    public static func delete(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .delete, path: path, query: queryItems(query), headers: headers)
    }

    /// A `HEAD` endpoint.
    public static func head(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .head, path: path, query: queryItems(query), headers: headers)
    }

    /// A `POST` endpoint sending `body`.
    public static func post(_ path: EndpointPath, body: RequestBody = .none, headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .post, path: path, headers: headers, body: body)
    }

    /// A `POST` endpoint sending `value` as JSON.
    public static func post(_ path: EndpointPath, json value: some Encodable, encoder: JSONEncoder = JSONEncoder(), headers: HTTPHeaders = [:]) -> Endpoint {
        post(path, body: .json(value, encoder: encoder), headers: headers)
    }

    /// A `POST` endpoint sending `form` as `application/x-www-form-urlencoded`.
    public static func post(_ path: EndpointPath, form: KeyValuePairs<String, String>, headers: HTTPHeaders = [:]) -> Endpoint {
        post(path, body: .form(form), headers: headers)
    }

    /// A `PUT` endpoint sending `body`.
    public static func put(_ path: EndpointPath, body: RequestBody = .none, headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .put, path: path, headers: headers, body: body)
    }

    /// A `PUT` endpoint sending `value` as JSON.
    public static func put(_ path: EndpointPath, json value: some Encodable, encoder: JSONEncoder = JSONEncoder(), headers: HTTPHeaders = [:]) -> Endpoint {
        put(path, body: .json(value, encoder: encoder), headers: headers)
    }

    /// A `PATCH` endpoint sending `body`.
    public static func patch(_ path: EndpointPath, body: RequestBody = .none, headers: HTTPHeaders = [:]) -> Endpoint {
        Endpoint(method: .patch, path: path, headers: headers, body: body)
    }

    /// A `PATCH` endpoint sending `value` as JSON.
    public static func patch(_ path: EndpointPath, json value: some Encodable, encoder: JSONEncoder = JSONEncoder(), headers: HTTPHeaders = [:]) -> Endpoint {
        patch(path, body: .json(value, encoder: encoder), headers: headers)
    }

    private static func queryItems(_ pairs: KeyValuePairs<String, String>) -> [URLQueryItem] {
        pairs.map { URLQueryItem(name: $0.key, value: $0.value) }
    }
}
