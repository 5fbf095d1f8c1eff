import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import OpenAPIURLSession
import Salvo
import SalvoOpenAPI

// salvo-openapi-instructions: instructions per operation of the same generated client over
// swift-openapi-urlsession's `URLSessionTransport` and over `SalvoTransport`, counted by callgrind
// (every thread's) against the repository's loopback server. From the repository root:
//
//   swift build --package-path Integrations/OpenAPI -c release --product salvo-openapi-instructions
//   Integrations/OpenAPI/.build/release/salvo-openapi-instructions [--count N]
//
// The client is generated from the tests' openapi.yaml (a link to it is in this folder); the
// operation is `echoRequest`, a GET of /echo with a query whose JSON answer is decoded. Both
// transports send through a URLSession of the same configuration (ephemeral, no cache, one
// connection), so the difference is the transport's own work. Each side runs in a valgrind child.

/// A session configuration both transports share.
func sessionConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpMaximumConnectionsPerHost = 1
    return configuration
}

/// A side calling `echoRequest` on a client over the transport `makeTransport` makes.
func side(_ name: String, _ makeTransport: @escaping @Sendable (URL) throws -> any ClientTransport) -> CountedSide {
    CountedSide(name: name) { baseURL in
        guard let baseURL else { throw WorkloadError("no loopback server") }
        let client = Client(serverURL: baseURL, transport: try makeTransport(baseURL))
        return { count in
            try blocking {
                for _ in 0..<count {
                    let echo = try await client.echoRequest(query: .init(greeting: "hello")).ok.body.json
                    guard echo.query == "greeting=hello" else { throw WorkloadError("unexpected echo \(echo)") }
                }
            }
        }
    }
}

let workloads = [
    CountedWorkload(name: "generated client, GET + JSON decode, per operation", scale: 0.1, sides: [
        side("swift-openapi-urlsession: URLSessionTransport") { _ in
            URLSessionTransport(configuration: .init(session: URLSession(configuration: sessionConfiguration())))
        },
        side("SalvoTransport over URLSession") { baseURL in
            let server = try ServerConfig(baseURL: baseURL.absoluteString, firingFunction: .session(URLSession(configuration: sessionConfiguration())))
            return SalvoTransport(server: server)
        },
    ]),
]

countInstructions(of: workloads)
