import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import OpenAPIURLSession
@_spi(Transport) import Salvo
import SalvoOpenAPI

/// The generated client over each transport the tests compare: Salvo's and swift-openapi-urlsession's.
struct Clients {
    /// The client over ``SalvoTransport`` on `server`.
    let salvo: Client
    /// The same client over `URLSessionTransport`.
    let urlSession: Client

    /// Both clients for the server at `baseURL`, Salvo's firing through a session of its own.
    init(baseURL: URL, actions: [any NetworkAction] = [], requiresAuthentication: Bool = false) throws {
        guard let host = baseURL.host, let port = baseURL.port else {
            throw NetworkError.invalidRequest(RequestProblem(.url, "\(baseURL) has no host and port"))
        }
        let server = ServerConfig(scheme: "http", host: host, port: port, actions: actions,
                                  requiresAuthentication: requiresAuthentication,
                                  firingFunction: .session(URLSession(configuration: .ephemeral)))
        salvo = Client(serverURL: baseURL, transport: SalvoTransport(server: server))
        urlSession = Client(serverURL: baseURL, transport: URLSessionTransport())
    }

    /// `work` run with each client, Salvo's first.
    func both<T: Sendable>(_ work: (Client) async throws -> T) async throws -> (salvo: T, urlSession: T) {
        (try await work(salvo), try await work(urlSession))
    }
}

/// A client over ``SalvoTransport`` that answers from `routes`, offline.
func mockClient(_ routes: [MockRoute], actions: [any NetworkAction] = []) throws -> Client {
    let server = ServerConfig(host: "api.example.com", actions: actions, firingFunction: .mock(MockRoutes(routes)))
    return Client(serverURL: try Servers.Server1.url(), transport: SalvoTransport(server: server))
}

/// The `NetworkError` a generated client's `ClientError` wraps, or nil with the error it was.
func underlyingNetworkError(_ error: any Error) -> NetworkError? {
    (error as? ClientError)?.underlyingError as? NetworkError
}
