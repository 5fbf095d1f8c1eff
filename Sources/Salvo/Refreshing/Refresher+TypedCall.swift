import Foundation

extension Refresher {
    /// A refresher over a typed call, made on the main actor: its value type, decoder and error
    /// body come from the call, so nothing is named again, and the value decodes on the main
    /// actor, so a plain model of an app target with main-actor default isolation works.
    ///
    /// ```swift
    /// @MainActor final class ProfileModel {
    ///     let profile = Refresher(api.profile())   // TypedCall<Profile, Problem> → Refresher<Profile>
    /// }
    /// ```
    ///
    /// Each refresh lands in ``state`` first; then the call's `TypedCall/valueHandler` or
    /// `TypedCall/apiErrorHandler`, if set, runs on the main actor as when the call fires, so
    /// the server's error body, decoded as `ErrorBody`, reaches whoever set the handler (``error``
    /// keeps the ``NetworkError``). Off the main actor, use ``init(decodingAnywhere:)``.
    @MainActor
    public convenience init<ErrorBody>(_ call: TypedCall<Value, ErrorBody>) {
        // `Value: Decodable` cannot be asked for here: `Value` is `Sendable`, and a `Sendable` type
        // parameter takes no main-actor-isolated conformance (SE-0470). The conformance is looked
        // up when the body arrives, on the main actor, where an isolated one is found too.
        let decoder = call.effectiveDecoder
        self.init(call: call.call, decodingOnMainActor: { response in
            guard let type = Value.self as? any Decodable.Type else { throw UndecodableValue() }
            return try Self.decode(response.data, as: type, decoder: decoder).get()
        })
        typedHandlers.withLock { $0 = call.typedHandOff }
    }

    /// `data` decoded as `type`, which is `Value`, as a typed call decodes it.
    private static func decode<Model: Decodable>(_ data: Data, as type: Model.Type, decoder: JSONDecoder) -> Result<Value, NetworkError> {
        Salvo.decode(type, from: data, decoder: decoder).flatMap { model in
            guard let value = model as? Value else { return .failure(.decoding(DecodingProblem(UndecodableValue(), body: data, type: Value.self))) }
            return .success(value)
        }
    }

    /// A refresher over a typed call whose value decodes where the response arrives, from any
    /// isolation: `Value`'s `Decodable` conformance must not be isolated to an actor. Otherwise as
    /// ``init(_:)``.
    ///
    /// ```swift
    /// let profile = Refresher(decodingAnywhere: api.profile())
    /// ```
    public convenience init<ErrorBody>(decodingAnywhere call: TypedCall<Value, ErrorBody>) where Value: Decodable & SendableMetatype {
        let decoder = call.effectiveDecoder
        self.init(call: call.call) { response in try decoder.decode(Value.self, from: response.data) }
        typedHandlers.withLock { $0 = call.typedHandOff }
    }
}

/// A refresher's value type that does not conform to `Decodable`.
private struct UndecodableValue: Error, CustomStringConvertible {
    var description: String { "the value type is not Decodable; make the Refresher with init(call:decode:)" }
}
