import Foundation

/// A ``NetCall`` that knows what it returns: the value type, the API's error-body type and the
/// decoder are bound once, where the call is configured, so the code that fires it names none of them.
///
/// ```swift
/// // In the API module: bind the error body once for the whole API…
/// typealias GitHubCall<Value> = TypedCall<Value, GitHubError>
///
/// enum GitHub {
///     static func createIssue(_ issue: NewIssue) -> GitHubCall<Issue> {
///         GitHubCall(NetCall(server: .github, endpoint: .post("/repos/o/r/issues", body: .json(issue))))
///     }
/// }
///
/// // …anywhere else:
/// let issue = try await GitHub.createIssue(draft).value()   // throws APIError<GitHubError>
/// GitHub.createIssue(draft).fire { result in … }            // on the main actor
///
/// // …or set its typed handlers in a view model and fire it where its type is unknown:
/// var create = GitHub.createIssue(draft)
/// create.valueHandler = { issue in self.show(issue) }
/// create.apiErrorHandler = { error in self.alert(error.body?.message) }
/// submitButton.calls.append(create)                          // [any Fireable]
/// ```
///
/// The untyped call stays in ``call``: its responder, actions, callback queue and firing function
/// work as they do for any ``NetCall``, and `firingFunction` swaps mock, replay or spy firing in
/// the same way; each reads and sets through the typed call too (``subscript(dynamicMember:)``). Decoding uses ``decoder``, or the server's ``ServerConfig/decoder`` when it is `nil`.
/// An API without an error body uses `Never` as `ErrorBody`: the body is then always `nil`. An
/// endpoint that returns nothing you use has `Void` as `Value`; one whose body may be empty
/// (a `204`) has an optional `Value`, which is `nil` then.
///
/// Neither type need be `Sendable`: the body arrives as bytes and is decoded where the caller is
/// (`value()` and `response()` in the caller's isolation, `fire { }` on the main actor), so a
/// plain `struct Issue: Codable` of an app target with main-actor default isolation works.
@dynamicMemberLookup
public struct TypedCall<Value, ErrorBody>: Fireable, Sendable {
    /// The untyped call: server, endpoint, responder, actions, callback queue and firing function.
    public var call: NetCall
    /// The decoder for this call's value and error body; `nil` uses the server's.
    public var decoder: JSONDecoder?
    /// The typed handlers ``valueHandler`` and ``apiErrorHandler``, with how to decode for them;
    /// `nil` until one is set.
    var handlers: Handlers?

    /// A typed call over `call`, decoding a successful body as `Value` and a failure's body as
    /// `ErrorBody`.
    ///
    /// `Value` is `Decodable`, or `Void` for an endpoint that returns nothing you use (a `DELETE`,
    /// a `204`): any successful body is then ignored.
    ///
    /// ```swift
    /// let delete = TypedCall<Void, Problem>(NetCall(server: api, endpoint: .delete("/books/1")))
    /// try await delete.value()   // throws APIError<Problem>
    /// ```
    public init(_ call: NetCall, decoder: JSONDecoder? = nil) where ErrorBody: Decodable {
        self.call = call
        self.decoder = decoder
    }

    /// The untyped call's properties, read and set through: `responder`, `firingFunction`,
    /// `server`, `endpoint`, `actions`, `callbackQueue`.
    ///
    /// ```swift
    /// var call = GitHub.createIssue(draft)
    /// call.firingFunction = .mock(routes)     // the same as call.call.firingFunction
    /// ```
    public subscript<Property>(dynamicMember keyPath: WritableKeyPath<NetCall, Property>) -> Property {
        get { call[keyPath: keyPath] }
        set { call[keyPath: keyPath] = newValue }
    }

    /// The decoder in effect: the call's own, or its server's.
    var effectiveDecoder: JSONDecoder { decoder ?? call.server.decoder }

    /// The typed response for a successful untyped one, or the failure with its error body
    /// decoded, here: in the isolation of whoever calls it.
    func typed(
        _ result: Result<NetworkResponse, NetworkError>,
        value: (Data, JSONDecoder) -> Result<Value, NetworkError>
    ) -> Result<TypedResponse<Value>, APIError<ErrorBody>> where ErrorBody: Decodable {
        let decoder = effectiveDecoder
        return result
            .flatMap { response in value(response.data, decoder).map { TypedResponse(value: $0, response: response) } }
            .mapError { error in APIError(error: error, body: decodeErrorBody(ErrorBody.self, of: error, decoder: decoder)) }
    }
}

extension TypedCall where Value: Decodable, ErrorBody: Decodable {
    /// The typed response for a successful untyped one, or the failure with its error body decoded.
    func typed(_ result: Result<NetworkResponse, NetworkError>) -> Result<TypedResponse<Value>, APIError<ErrorBody>> {
        typed(result) { data, decoder in decode(Value.self, from: data, decoder: decoder) }
    }
}

extension TypedCall where Value == Void, ErrorBody: Decodable {
    /// The typed response for a successful untyped one (its body ignored), or the failure with its
    /// error body decoded.
    func typed(_ result: Result<NetworkResponse, NetworkError>) -> Result<TypedResponse<Value>, APIError<ErrorBody>> {
        typed(result) { _, _ in .success(()) }
    }
}
