import Foundation
import Salvo

/// Benchmark 3: firing a mock call whose responder decodes a small JSON object, against
/// `JSONDecoder` decoding the same bytes alone.
public struct MockDecoding: Sendable {
    /// The small object both sides decode.
    public struct User: Codable, Sendable, Equatable {
        let id: Int
        let name: String
        let email: String
        let isActive: Bool
        let score: Double
    }

    /// The JSON both sides decode.
    public static let body = Data(#"{"id":42,"name":"Ada Lovelace","email":"ada@example.com","isActive":true,"score":98.5}"#.utf8)

    private let call: NetCall
    private let decoder = JSONDecoder()

    /// A workload firing through `firingFunction`: mock firing by default, or a ``CannedSession``.
    public init(firingFunction: FiringFunction = .mock(.data(MockDecoding.body, headers: ["Content-Type": "application/json"]))) {
        call = NetCall(
            server: ServerConfig(host: "api.example.com", basePath: "v1"),
            endpoint: .get("/users/42"),
            responder: .decoding(User.self, decoder: decoder) { sink($0) },
            callbackQueue: .immediate,
            firingFunction: firingFunction
        )
    }

    /// Salvo: fire, validate, dispatch and decode; the decoded value reaches the handler before this returns.
    public func salvo() {
        sink(call.fire())
    }

    /// Salvo with a new call per firing: configuring it builds its request, then the same as ``salvo()``.
    public func salvoNewCall() {
        var fresh = call
        fresh.endpoint = .get("/users/42")
        sink(fresh.fire())
    }

    /// Baseline: `JSONDecoder` alone on the same bytes, with the same decoder instance.
    public func baseline() throws -> User {
        try decoder.decode(User.self, from: Self.body)
    }

    /// Fails unless the Salvo side decodes the same value the baseline does, synchronously.
    public func checkEquivalence() throws {
        let expected = try baseline()
        let counter = DeliveryCounter()
        var checked = call
        checked.responder = .decoding(User.self, decoder: decoder) { result in
            if (try? result.get()) == expected { counter.increment() }
        }
        checked.fire()
        guard counter.value == 1 else {
            throw WorkloadError("mock firing did not decode the user synchronously (\(counter.value) deliveries)")
        }
    }
}
