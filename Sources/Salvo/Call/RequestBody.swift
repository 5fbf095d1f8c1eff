import Foundation

/// What an endpoint sends as its request body.
///
/// Bodies are encoded when the endpoint is made, so an endpoint stays a plain value; an encoding
/// failure is kept and reported as ``NetworkError/invalidRequest(_:)`` when the call fires.
public struct RequestBody: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case none
        case data(Data, contentType: String?)
        case unencodable(String)
    }

    let content: Content

    /// No body.
    public static let none = RequestBody(content: .none)

    /// Raw bytes sent as they are, with an optional `Content-Type`.
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .data(data, contentType: contentType))
    }

    /// UTF-8 text with a `Content-Type` (plain text by default).
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        .data(Data(text.utf8), contentType: contentType)
    }

    /// Any `Encodable` value as JSON (`Content-Type: application/json`).
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the encoder to use, e.g. one with `.convertToSnakeCase`.
    public static func json<Value: Encodable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> RequestBody {
        do {
            return .data(try encoder.encode(value), contentType: "application/json")
        } catch {
            return RequestBody(content: .unencodable("\(Value.self) could not be encoded as JSON: \(error)"))
        }
    }

    /// Fields sent as `application/x-www-form-urlencoded`, in order, repeated names allowed.
    public static func form(_ fields: KeyValuePairs<String, String>) -> RequestBody {
        form(fields.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// Fields sent as `application/x-www-form-urlencoded`, in order, repeated names allowed.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        let encoded = fields.map { field in
            PercentEncoding.formField(field.name) + "=" + PercentEncoding.formField(field.value ?? "")
        }
        return .data(Data(encoded.joined(separator: "&").utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// The body's bytes, or nil when there is no body.
    public var data: Data? {
        if case .data(let data, _) = content { return data }
        return nil
    }

    /// The `Content-Type` this body implies, if any.
    public var contentType: String? {
        if case .data(_, let type) = content { return type }
        return nil
    }
}
