import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Instrumentation
import Logging
import Salvo
import SalvoLogging
import SalvoMetrics
import SalvoTracing
import Tracing

// salvo-telemetry-instructions: what Salvo's telemetry costs per request, in instructions counted
// by callgrind (every thread's), next to the same request without it. From the repository root:
//
//   swift build --package-path Integrations/Telemetry -c release --product salvo-telemetry-instructions
//   Integrations/Telemetry/.build/release/salvo-telemetry-instructions [--count N] [--only SUBSTRING]
//
// Each side runs in a valgrind child of its own, so each bootstraps its own handlers. Sides:
// - plain: no telemetry;
// - not bootstrapped: `MetricsAction()` and `.traced(…)` configured, nothing bootstrapped (swift-log
//   is left out here: its default handler writes every `info` entry to stdout);
// - no-op handlers: `LoggerAction`, `MetricsAction` and `.traced(…)` configured, with swift-log's,
//   swift-metrics' and swift-distributed-tracing's no-op handlers bootstrapped;
// - one idle action: a plain `NetworkAction` that does nothing, the cost every telemetry action
//   had before actions could say they are inactive (it moves the call onto the attempt loop's task).
// Workloads: mock firing (the pipeline alone, the harshest ratio) and HTTP GETs of 64 bytes over
// URLSession against the repository's loopback server.

/// An action that does nothing but is there.
struct IdleAction: NetworkAction {}

/// The same call on every side, with or without telemetry.
enum Telemetry {
    case none, notBootstrapped, noOpHandlers, idleAction

    /// `server` configured for this side; bootstraps the no-op handlers (once per process).
    func configure(_ server: ServerConfig) -> ServerConfig {
        var server = server
        switch self {
        case .none:
            break
        case .notBootstrapped:
            server.actions.append(MetricsAction())
            server.firingFunction = .traced(server.firingFunction)
        case .noOpHandlers:
            LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
            MetricsSystem.bootstrap(NOOPMetricsHandler.instance)
            InstrumentationSystem.bootstrap(NoOpTracer())
            server.actions.append(MetricsAction())
            server.actions.append(LoggerAction(Logger(label: "salvo-telemetry-instructions")))
            server.firingFunction = .traced(server.firingFunction)
        case .idleAction:
            server.actions.append(IdleAction())
        }
        return server
    }

    var sideName: String {
        switch self {
        case .none: "plain"
        case .notBootstrapped: "metrics + tracing, not bootstrapped"
        case .noOpHandlers: "logging + metrics + tracing, no-op handlers"
        case .idleAction: "one idle action (each telemetry action's cost before isActive)"
        }
    }
}

/// The sides of a workload firing `call(server)` through `server` made from the base URL.
func sides(server: @escaping @Sendable (URL?) throws -> ServerConfig, endpoint: Endpoint, expectedBytes: Int) -> [CountedSide] {
    [Telemetry.none, .notBootstrapped, .noOpHandlers, .idleAction].map { telemetry in
        CountedSide(name: telemetry.sideName) { baseURL in
            let call = NetCall(server: telemetry.configure(try server(baseURL)), endpoint: endpoint, callbackQueue: .immediate)
            return { count in
                try blocking {
                    for _ in 0..<count {
                        let response = try await call.response()
                        guard response.data.count == expectedBytes else { throw WorkloadError("got \(response.data.count) bytes") }
                    }
                }
            }
        }
    }
}

let body = Data(#"{"ok":true}"#.utf8)
let workloads = [
    CountedWorkload(name: "mock firing, per call", scale: 1, sides: sides(
        server: { _ in ServerConfig(host: "api.example.com", firingFunction: .mock(.data(body, headers: ["Content-Type": "application/json"]))) },
        endpoint: .get("/users/42", query: ["expand": "profile"]),
        expectedBytes: body.count
    )),
    CountedWorkload(name: "HTTP GET over URLSession, per request", scale: 0.1, sides: sides(
        server: { baseURL in
            guard let baseURL else { throw WorkloadError("no loopback server") }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.httpMaximumConnectionsPerHost = 1
            return try ServerConfig(baseURL: baseURL.absoluteString, firingFunction: .session(URLSession(configuration: configuration)))
        },
        endpoint: .get("/bytes", query: ["n": "64"]),
        expectedBytes: 64
    )),
]

countInstructions(of: workloads)
