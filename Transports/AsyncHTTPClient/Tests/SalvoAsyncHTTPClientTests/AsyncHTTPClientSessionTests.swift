import AsyncHTTPClient
import Foundation
import NIOCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) @testable import Salvo
import SalvoAsyncHTTPClient
import Testing

/// Who owns the `HTTPClient`, shutting it down, and what a call does once it is shut down.
@Suite struct AsyncHTTPClientSessionTests {
    private func call(_ endpoint: Endpoint, through session: AsyncHTTPClientSession) async throws -> NetCall {
        NetCall(server: try await .loopback(), endpoint: endpoint, firingFunction: .asyncHTTPClient(session))
    }

    @Test func withoutABootstrappedTracerTheConfigurationTracesNothing() {
        // The test process bootstraps no tracing system: the global tracer is a no-op one, which
        // the configuration drops rather than building spans for it on every request.
        #expect(AsyncHTTPClientSession.clientConfiguration.tracing.tracer == nil)
        #expect(HTTPClient.Configuration().tracing.tracer != nil, "AsyncHTTPClient's own default keeps the no-op tracer")
    }

    @Test func aSessionThatMadeItsClientOwnsIt() async throws {
        let owning = AsyncHTTPClientSession()
        #expect(owning.isClientOwner)
        #expect(!AsyncHTTPClientSession.shared.isClientOwner)
        let client = HTTPClient(configuration: AsyncHTTPClientSession.clientConfiguration)
        #expect(!AsyncHTTPClientSession(client: client).isClientOwner)
        try await owning.shutdown()
        try await client.shutdown()
    }

    @Test func aCallAfterShutdownFailsSayingSoWithoutHanging() async throws {
        let session = AsyncHTTPClientSession()
        try await session.shutdown()
        let call = try await call(.get("/echo"), through: session)
        let error = await networkError(within: 5) { try await call.response() }
        guard case .transport(let urlError)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(urlError.failingURL?.path == "/echo")
        #expect(error?.description.contains("has been shut down") == true, "\(String(describing: error?.description))")
    }

    @Test func aCallInFlightWhenTheClientShutsDownEndsWithTheSameMessage() async throws {
        let session = AsyncHTTPClientSession()
        let call = try await call(.get("/slow", query: ["delay": "5"]), through: session)
        let started = Date()
        let work = Task { await networkError(within: 10) { try await call.response() } }
        try await Task.sleep(for: .milliseconds(200))
        try await session.shutdown()
        let error = await work.value
        #expect(error?.description.contains("has been shut down") == true, "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func shuttingDownTwiceThrowsTheClientsError() async throws {
        let session = AsyncHTTPClientSession()
        try await session.shutdown()
        await #expect(throws: HTTPClientError.alreadyShutdown) { try await session.shutdown() }
    }

    @Test func aBorrowedClientIsNeverShutDownByTheSession() async throws {
        let client = HTTPClient(configuration: AsyncHTTPClientSession.clientConfiguration)
        let session = AsyncHTTPClientSession(client: client)
        await #expect(throws: HTTPClientError.shutdownUnsupported) { try await session.shutdown() }
        let echo = try await call(.get("/echo/borrowed"), through: session).value(as: Echo.self)
        #expect(echo.path == "/echo/borrowed")
        try await client.shutdown()
    }

    @Test func theSharedSessionCannotBeShutDown() async throws {
        await #expect(throws: HTTPClientError.shutdownUnsupported) { try await AsyncHTTPClientSession.shared.shutdown() }
        let echo = try await call(.get("/echo/shared"), through: .shared).value(as: Echo.self)
        #expect(echo.path == "/echo/shared")
    }

    /// AsyncHTTPClient stops a debug build that releases a running client; an owning session
    /// shuts its client down when its last copy goes away instead.
    @Test func anOwningSessionNobodyShutDownShutsItsClientDownWhenItGoesAway() async throws {
        var session: AsyncHTTPClientSession? = AsyncHTTPClientSession()
        let client = try #require(session?.client)
        let echo = try await call(.get("/echo/owned"), through: try #require(session)).value(as: Echo.self)
        #expect(echo.path == "/echo/owned")
        session = nil
        let isShutDown = try await withTimeout {
            while true {
                do {
                    _ = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:9/"), timeout: .seconds(1))
                } catch let error as HTTPClientError where error == .alreadyShutdown {
                    return true
                } catch {}
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(isShutDown)
    }

    @Test func aClientThatFollowsRedirectsItselfFailsARedirectedCallSayingSo() async throws {
        let client = HTTPClient(configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false)))
        let session = AsyncHTTPClientSession(client: client)
        let call = try await call(.get("/redirect", query: ["to": "/echo/landed"]), through: session)
        let error = await networkError { try await call.response() }
        #expect(error?.description.contains("follows redirects itself") == true, "\(String(describing: error))")
        // Without a redirect the same client is fine.
        #expect(try await self.call(.get("/echo/direct"), through: session).value(as: Echo.self).path == "/echo/direct")
        try await client.shutdown()
    }
}
