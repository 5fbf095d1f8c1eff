import Foundation

extension NetworkResponder {
    /// A responder that decodes a successful body as `T` on the call's callback queue and hands
    /// over a `Result`.
    ///
    /// Transport, server and decoding failures all arrive as `.failure`. To decode a failure's
    /// body as your error type too, fire a ``TypedCall``: `TypedCall<Book, APIProblem>(call).fire { result in … }`.
    ///
    /// ```swift
    /// call.responder = .decoding([Book].self) { result in
    ///     switch result {
    ///     case .success(let books): shelf.show(books)
    ///     case .failure(let error): alerts.show(error)
    ///     }
    /// }
    /// ```
    ///
    /// Called from the main actor with a handler that uses it, the main-actor overload is chosen
    /// instead: it decodes on the main actor, so `T` may be a plain model of an app target with
    /// main-actor default isolation. This one decodes on whatever queue the call's handlers run
    /// on, so `T`'s `Decodable` conformance must not be isolated to an actor (`SendableMetatype`).
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    ///   - handler: receives the value or the error, on the call's callback queue.
    @inlinable // so the decode is specialised for `T` in the caller's module, like a direct `JSONDecoder` call
    public static func decoding<T: Decodable & SendableMetatype>(
        _ type: T.Type,
        decoder: JSONDecoder? = nil,
        then handler: @escaping @Sendable (Result<T, NetworkError>) -> Void
    ) -> NetworkResponder {
        var responder = NetworkResponder(
            dataHandler: { data in handler(decode(type, from: data, decoder: serverDecoder(or: decoder))) },
            errorHandler: { handler(.failure($0)) },
            serverErrorHandler: { handler(.failure($0)) }
        )
        responder.usesServerDecoder = decoder == nil
        return responder
    }

    /// A responder that decodes a successful body as `T` on the main actor and hands over a
    /// `Result` there: for a `@MainActor` model whose types are isolated to the main actor.
    ///
    /// ```swift
    /// call.responder = .decoding(Book.self) { result in
    ///     self.book = try? result.get()   // a @MainActor view model
    /// }
    /// ```
    ///
    /// On the default ``CallbackQueue/main`` the body is decoded and `handler` runs in place, in
    /// the documented handler order; on any other queue both are handed to the main queue.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder; `nil` (the default) uses the call's ``ServerConfig/decoder``.
    ///   - handler: receives the value or the error, on the main actor.
    @MainActor
    public static func decoding<T: Decodable>(
        _ type: T.Type,
        decoder: JSONDecoder? = nil,
        then handler: @escaping @MainActor (Result<T, NetworkError>) -> Void
    ) -> NetworkResponder {
        let decodeAndHandle: @MainActor (Data, JSONDecoder) -> Void = { data, decoder in
            handler(decode(type, from: data, decoder: decoder))
        }
        let fail: @MainActor (NetworkError) -> Void = { handler(.failure($0)) }
        var responder = NetworkResponder(
            dataHandler: { data in
                // Read here, while the dispatch has the call's decoder bound, not after the hop.
                let decoder = serverDecoder(or: decoder)
                runOnMainActor { decodeAndHandle(data, decoder) }
            },
            errorHandler: { error in runOnMainActor { fail(error) } },
            serverErrorHandler: { error in runOnMainActor { fail(error) } }
        )
        responder.usesServerDecoder = decoder == nil
        return responder
    }
}

/// The decoder a decoding responder uses: its own, else the firing call's server's (bound while
/// the task dispatches an outcome to a responder that asked for it), else a plain `JSONDecoder`
/// when a handler is called by hand.
@usableFromInline
func serverDecoder(or decoder: JSONDecoder?) -> JSONDecoder {
    decoder ?? ResponderDispatch.serverDecoder ?? JSONDecoder()
}

/// What a dispatch binds for the handlers it calls.
enum ResponderDispatch {
    /// The firing call's ``ServerConfig/decoder``, bound only around the dispatch of a responder
    /// whose decoding handlers use it.
    @TaskLocal static var serverDecoder: JSONDecoder?
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
