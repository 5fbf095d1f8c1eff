import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 2: firing a call whose answer is canned, through the whole pipeline to `dataHandler`.
///
/// The baseline is building the same call's request alone, so the difference is what firing adds
/// beyond request building: the task, status validation and dispatch.
public struct MockFiring: Sendable {
    /// The body every answer carries.
    public static let body = Data(#"{"ok":true}"#.utf8)

    private let call: NetCall

    /// A workload firing through `firingFunction`: mock firing by default, or a ``CannedSession``.
    public init(firingFunction: FiringFunction = .mock(.data(MockFiring.body, headers: ["Content-Type": "application/json"]))) {
        call = NetCall(
            server: ServerConfig(host: "api.example.com", apiRoute: "v1"),
            endpoint: .get("/users/42", query: ["expand": "profile"]),
            responder: NetworkResponder(dataHandler: { sink($0) }),
            callbackQueue: .immediate,
            firingFunction: firingFunction
        )
    }

    /// Fires the call; with `.immediate` delivery, `dataHandler` has run when this returns.
    public func fire() {
        sink(call.fire())
    }

    /// Builds the call's request only: the part of firing that benchmark 1 already covers.
    public func buildRequest() throws(NetworkError) -> URLRequest {
        try call.urlRequest()
    }

    /// Fails unless firing reaches `dataHandler` with the body before `fire()` returns.
    public func checkDelivery() throws {
        let counter = DeliveryCounter()
        var checked = call
        checked.responder.dataHandler = { data in
            if data == Self.body { counter.increment() }
        }
        checked.fire()
        guard counter.value == 1 else {
            throw WorkloadError("mock firing did not reach dataHandler synchronously (\(counter.value) deliveries)")
        }
    }
}
