import Foundation
import OpenAPIRuntime
import Salvo
import SalvoOpenAPI
import Testing

// The code in Docs/OpenAPI.md, kept here so it cannot rot: the generated client of this package's
// openapi.yaml, live and offline, as an app's composition root and a SwiftUI preview would make it.

// MARK: - One client, live or offline

/// Where the app's generated client sends its operations: the one value a preview swaps.
enum API {
    /// The live client: every operation through Salvo, with the server's actions.
    static func live(token: @escaping @Sendable () async throws -> String?) throws -> Client {
        let server = try ServerConfig(
            baseURL: "https://httpbin.example.com",
            actions: [AuthTokenAction(token: token), RetryAction()],
            requiresAuthentication: true
        )
        return Client(serverURL: try Servers.Server1.url(), transport: SalvoTransport(server: server))
    }

    /// The same client answering from canned data, offline: for SwiftUI previews and tests.
    static func preview() throws -> Client {
        let routes = MockRoutes(
            MockRoute.operation("getHeaders", .json(["headers": ["X-Greeting": "Hello from a preview"]]))
            + MockRoute.operation("streamTicks", .events((1...3).map { ServerSentEvent(data: #"{"n": \#($0)}"#) }, every: 0.5))
            + [MockRoute(.get, "/status/:code") { request in .status(Int(request.parameters["code"] ?? "") ?? 500) }]
        )
        let server = ServerConfig(host: "preview.invalid", firingFunction: .mock(routes))
        return Client(serverURL: try Servers.Server1.url(), transport: SalvoTransport(server: server))
    }
}

/// What a view model does with the client, whichever transport is under it.
func greeting(from client: Client) async throws -> String {
    let headers = try await client.getHeaders(headers: .init(xGreeting: "hi")).ok.body.json.headers
    return headers.additionalProperties["X-Greeting"] ?? "no greeting"
}

/// Ticks as they arrive, decoded by openapi-runtime over Salvo's stream.
func ticks(from client: Client) async throws -> [Int] {
    let body = try await client.streamTicks(path: .init(key: "ticks"), query: .init(count: 3)).ok.body.textEventStream
    var ticks: [Int] = []
    for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Tick.self) {
        ticks.append(event.data?.n ?? 0)
    }
    return ticks
}

#if canImport(SwiftUI)
import SwiftUI

/// A view that shows the greeting the client fetches.
struct GreetingView: View {
    let client: Client
    @State private var text = "…"

    var body: some View {
        Text(text).task {
            text = (try? await greeting(from: client)) ?? "failed"
        }
    }
}

#Preview {
    // Offline: the preview never touches the network.
    if let client = try? API.preview() {
        GreetingView(client: client)
    }
}
#endif

@Suite struct OpenAPISamplesTests {
    @Test func thePreviewClientAnswersOffline() async throws {
        let client = try API.preview()
        #expect(try await greeting(from: client) == "Hello from a preview")
        #expect(try await ticks(from: client) == [1, 2, 3])
        guard case .notFound = try await client.getStatus(path: .init(code: 404)) else {
            Issue.record("404 should be notFound")
            return
        }
    }
}
