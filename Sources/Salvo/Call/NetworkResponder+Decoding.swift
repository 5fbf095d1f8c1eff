import Foundation

extension NetworkResponder {
    /// A responder that decodes a successful body as `T` and hands over a `Result`.
    ///
    /// Transport, server and decoding failures all arrive as `.failure`.
    ///
    /// ```swift
    /// call.responder = .decoding([Book].self) { result in
    ///     switch result {
    ///     case .success(let books): shelf.show(books)
    ///     case .failure(let error): alerts.show(error)
    ///     }
    /// }
    /// ```
    @inlinable // so the decode is specialised for `T` in the caller's module, like a direct `JSONDecoder` call
    public static func decoding<T: Decodable & Sendable>(
        _ type: T.Type,
        decoder: JSONDecoder = JSONDecoder(),
        then handler: @escaping @Sendable (Result<T, NetworkError>) -> Void
    ) -> NetworkResponder {
        NetworkResponder(
            dataHandler: { data in handler(decode(type, from: data, decoder: decoder)) },
            errorHandler: { handler(.failure($0)) },
            serverErrorHandler: { handler(.failure($0)) }
        )
    }

    /// A responder that decodes a successful body as `T`, with separate value and error closures.
    public static func decoding<T: Decodable & Sendable>(
        _ type: T.Type,
        decoder: JSONDecoder = JSONDecoder(),
        onValue: @escaping @Sendable (T) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> NetworkResponder {
        decoding(type, decoder: decoder) { result in
            switch result {
            case .success(let value): onValue(value)
            case .failure(let error): onError(error)
            }
        }
    }

    /// A responder that decodes a successful body as `T` and a failure's body as your error type `E`.
    ///
    /// An absent, empty or undecodable error body gives `body: nil`, never a decoding failure.
    public static func decoding<T: Decodable & Sendable, E: Decodable & Sendable>(
        _ type: T.Type,
        errorBody: E.Type,
        decoder: JSONDecoder = JSONDecoder(),
        then handler: @escaping @Sendable (Result<T, APIError<E>>) -> Void
    ) -> NetworkResponder {
        decoding(type, decoder: decoder) { result in
            handler(result.mapError { APIError(error: $0, body: decodeErrorBody(E.self, of: $0, decoder: decoder)) })
        }
    }
}

/// Decodes `data` as `T`, mapping a failure to ``NetworkError/decoding(_:)`` with the body.
///
/// An empty body is no JSON at all, so `JSONDecoder` refuses it; it decodes as `nil` when `T` is
/// optional (a 204, or a lookup that found nothing), and is a decoding failure otherwise.
@inlinable
func decode<T: Decodable>(_ type: T.Type, from data: Data, decoder: JSONDecoder) -> Result<T, NetworkError> {
    if data.isEmpty, let absent = (T.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? T {
        return .success(absent)
    }
    do {
        return .success(try decoder.decode(type, from: data))
    } catch {
        return .failure(.decoding(DecodingProblem(error, body: data, type: type)))
    }
}

/// The failure's body decoded as `E`, or nil when there is no body or it is not an `E`.
func decodeErrorBody<E: Decodable>(_ type: E.Type, of error: NetworkError, decoder: JSONDecoder) -> E? {
    guard let body = error.errorBody, !body.isEmpty else { return nil }
    return try? decoder.decode(type, from: body)
}
