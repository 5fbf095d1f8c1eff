import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 2: firing a call whose answer is canned, through the whole pipeline to `dataHandler`.
///
/// A call builds its request when it is configured, so both sides configure the call (which
/// builds its `URLRequest`) and Salvo's side then fires it: the difference is what firing adds
/// beyond request building — the task, status validation and dispatch.
public struct MockFiring: Sendable {
    /// The body every answer carries.
    public static let body = Data(#"{"ok":true}"#.utf8)

    private let server = ServerConfig(host: "api.example.com", basePath: "v1")
    private let endpoint = Endpoint.get("/users/42", query: ["expand": "profile"])
    private let firingFunction: FiringFunction

    /// A workload firing through `firingFunction`: mock firing by default, or a ``CannedSession``.
    public init(firingFunction: FiringFunction = .mock(.data(MockFiring.body, headers: ["Content-Type": "application/json"]))) {
        self.firingFunction = firingFunction
    }

    /// Configures the call and fires it; with `.immediate` delivery, `dataHandler` has run when this returns.
    public func fire() {
        sink(configuredCall().fire())
    }

    /// Configures the call only, which builds its request: the part of firing benchmark 1 covers.
    public func configure() -> NetCall {
        configuredCall()
    }

    private func configuredCall(dataHandler: @escaping @Sendable (Data) -> Void = { sink($0) }) -> NetCall {
        NetCall(
            server: server,
            endpoint: endpoint,
            responder: NetworkResponder(dataHandler: dataHandler),
            callbackQueue: .immediate,
            firingFunction: firingFunction
        )
    }

    /// Fails unless firing reaches `dataHandler` with the body before `fire()` returns.
    public func checkDelivery() throws {
        let counter = DeliveryCounter()
        configuredCall { data in
            if data == Self.body { counter.increment() }
        }.fire()
        guard counter.value == 1 else {
            throw WorkloadError("mock firing did not reach dataHandler synchronously (\(counter.value) deliveries)")
        }
    }
}
