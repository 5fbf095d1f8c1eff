import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Dot segments, injected methods, look-alike hosts and GET bodies against the real loopback server:
/// what arrives is exactly one segment, and what is refused never arrives at all.
@Suite struct HostileInputIntegrationTests {
    private func echo(_ endpoint: Endpoint, over transport: TransportUnderTest) async throws -> Echo {
        let call = NetCall(server: try await .loopback(), endpoint: endpoint, callbackQueue: .immediate, firingFunction: transport.firing)
        return try await call.value(as: Echo.self)
    }

    private func refusal(_ call: NetCall) async -> RequestProblem? {
        do {
            _ = try await call.response()
            return nil
        } catch {
            guard case .invalidRequest(let problem) = error else { return nil }
            return problem
        }
    }

    @Test(arguments: TransportUnderTest.all(withPairs: [(".", "%2E"), ("..", "%2E%2E")]))
    func dotOnlyValuesArriveAsOneEncodedSegment(over transport: TransportUnderTest, _ name: String, _ sent: String) async throws {
        let key = uniqueKey()
        let received = try await echo(.get("/echo/\(key)/files/\(name)/meta"), over: transport)
        #expect(received.path == "/echo/\(key)/files/\(sent)/meta")
        let segments = try await echo(Endpoint(path: EndpointPath(segments: ["echo", key, name, "meta"])), over: transport)
        #expect(segments.path == "/echo/\(key)/\(sent)/meta")
    }

    @Test(arguments: TransportUnderTest.all)
    func literalDotSegmentNeverLeaves(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let call = NetCall(server: try await .loopback(), endpoint: .get(EndpointPath("/echo/\(key)/x/../meta")), callbackQueue: .immediate, firingFunction: transport.firing)
        #expect(await refusal(call)?.part == .path)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)/meta") == 0)
    }

    @Test(arguments: TransportUnderTest.all)
    func injectedMethodIsRefusedBeforeTheWire(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let method = HTTPMethod("POST /echo/\(key) HTTP/1.1\r\nX-Injected: 1\r\nX-A:")
        let call = NetCall(server: try await .loopback(), endpoint: Endpoint(method: method, path: "/echo/\(key)"), callbackQueue: .immediate, firingFunction: transport.firing)
        let problem = try #require(await refusal(call))
        #expect(problem.part == .method)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)") == 0)
    }

    /// An action that rewrites the method in `prepare`, after the request was built.
    private struct InjectMethod: NetworkAction {
        let method: String
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            var request = request
            request.httpMethod = method
            return request
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func methodAnActionSetsIsRefusedBeforeTheWire(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let action = InjectMethod(method: "GET /echo/\(key) HTTP/1.1\r\nX-Injected: 1\r\nX-A:")
        let call = NetCall(server: try await .loopback(), endpoint: .get("/echo/\(key)"), actions: [action], callbackQueue: .immediate, firingFunction: transport.firing)
        #expect(await refusal(call)?.part == .method)
        #expect(try await LoopbackServer.count(path: "/echo/\(key)") == 0)
    }

    @Test(arguments: TransportUnderTest.all)
    func hostWithAPortInItIsRefusedWithTheFix(over transport: TransportUnderTest) async throws {
        let port = try await LoopbackServer.port()
        let call = NetCall(server: ServerConfig(scheme: "http", host: "127.0.0.1:\(port)"), endpoint: .get("/echo"), callbackQueue: .immediate, firingFunction: transport.firing)
        let problem = try #require(await refusal(call))
        #expect(problem.part == .host)
        #expect(problem.reason.contains("ServerConfig.port to \(port)"))
    }

    @Test(arguments: TransportUnderTest.all)
    func emptyBracketsAreRefused(over transport: TransportUnderTest) async throws {
        let server = ServerConfig(scheme: "http", host: "[]", port: try await LoopbackServer.port())
        #expect(await refusal(NetCall(server: server, endpoint: .get("/echo"), callbackQueue: .immediate, firingFunction: transport.firing))?.part == .host)
    }

    @Test(arguments: TransportUnderTest.all, [HTTPMethod.get, .head])
    func getOrHeadWithABodyIsRefusedNotSent(over transport: TransportUnderTest, _ method: HTTPMethod) async throws {
        let key = uniqueKey()
        let endpoint = Endpoint(method: method, path: "/echo/\(key)", body: .text("hello"))
        let problem = try #require(await refusal(NetCall(server: try await .loopback(), endpoint: endpoint, callbackQueue: .immediate, firingFunction: transport.firing)))
        #expect(problem.part == .body)
        #expect(problem.reason.contains(method.rawValue))
        #expect(try await LoopbackServer.count(path: "/echo/\(key)") == 0)
    }
}
