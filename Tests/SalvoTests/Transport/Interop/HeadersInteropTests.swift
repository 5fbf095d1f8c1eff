import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Response headers from `/response-headers`, request headers as `/headers` saw them, and
/// conditional requests: `/etag/{etag}` with `If-None-Match` / `If-Match`, `/cache`.
@Suite(.requiresHTTPBin) struct HeadersInteropTests {
    @Test(arguments: TransportUnderTest.all)
    func responseHeadersArriveAndARepeatedOneIsJoined(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let endpoint = Endpoint.get("/response-headers", query: ["X-Rate-Limit": "42", "X-Tag": "a", "X-Tag": "b", "Link": "</next>; rel=\"next\""])
        let response = try await withTimeout { try await httpbin.call(endpoint).response() }
        #expect(response.head?.headers["X-Rate-Limit"] == "42")
        #expect(response.head?.headers["x-rate-limit"] == "42")
        #expect(response.head?.headers["X-Tag"] == "a, b")
        #expect(response.head?.headers["Link"] == "</next>; rel=\"next\"")
        // The body lists the headers httpbin set, as JSON.
        let listed = try JSONDecoder().decode([String: OneOrMany].self, from: response.data)
        #expect(listed["X-Tag"] == ["a", "b"])
        #expect(listed["X-Rate-Limit"] == "42")
    }

    @Test(arguments: TransportUnderTest.all)
    func aTypedResponseCarriesTheHeadersWithTheValue(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = TypedCall<[String: OneOrMany], String>(httpbin.call(.post("/response-headers", query: ["ETag": "\"v1\""])))
        let response = try await withTimeout { try await call.response() }
        #expect(response.head?.headers["ETag"] == "\"v1\"")
        #expect(response.value["ETag"] == "\"v1\"")
    }

    @Test(arguments: TransportUnderTest.all)
    func requestHeadersArriveWithTheirValuesAndTheSessionsDefaults(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let endpoint = Endpoint.get("/headers", headers: ["X-Salvo-Request": "r-1", "Accept-Language": "fr-CH, fr;q=0.9", "User-Agent": "Salvo-Interop"])
        let echo = try await withTimeout { try await httpbin.call(endpoint).value(as: HTTPBinEcho.self) }
        #expect(echo.header("X-Salvo-Request") == "r-1")
        #expect(echo.header("Accept-Language") == "fr-CH, fr;q=0.9")
        #expect(echo.header("User-Agent") == "Salvo-Interop")
        #expect(echo.header("Host") == "127.0.0.1:\(try await HTTPBinServer.port())")
    }

    @Test(arguments: TransportUnderTest.all)
    func anUnchangedETagAnswers304WithTheETag(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let first = try await withTimeout { try await httpbin.call(.get("/etag/v42")).response() }
        #expect(first.head?.statusCode == 200)
        let etag = try #require(first.head?.headers["ETag"])
        #expect(etag == "v42")
        let call = httpbin.call(.get("/etag/v42", headers: ["If-None-Match": "\"\(etag)\""]))
        let failure = await networkError { try await call.response() }
        guard case .serverStatus(let notModified)? = failure else { Issue.record("got \(String(describing: failure))"); return }
        #expect(notModified.statusCode == 304)
        #expect(notModified.headers["ETag"] == "v42")
        #expect(notModified.body?.isEmpty ?? true)
    }

    @Test(arguments: TransportUnderTest.all)
    func aChangedETagAnswersTheResource(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/etag/v43", headers: ["If-None-Match": "\"v42\""]))
        let response = try await withTimeout { try await call.response() }
        #expect(response.head?.statusCode == 200)
        #expect(response.head?.headers["ETag"] == "v43")
        #expect(try JSONDecoder().decode(HTTPBinEcho.self, from: response.data).header("If-None-Match") == "\"v42\"")
    }

    @Test(arguments: TransportUnderTest.all)
    func aFailedIfMatchAnswers412(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/etag/v43", headers: ["If-Match": "\"v42\""]))
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == 412)
    }

    @Test(arguments: TransportUnderTest.all)
    func aConditionalRequestOnACachedResourceAnswers304(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let first = try await withTimeout { try await httpbin.call(.get("/cache")).response() }
        let lastModified = try #require(first.head?.headers["Last-Modified"])
        #expect(first.head?.headers["ETag"] != nil)
        let call = httpbin.call(.get("/cache", headers: ["If-Modified-Since": lastModified]))
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == 304)
    }

    @Test(arguments: TransportUnderTest.all)
    func cacheControlArrivesAsSent(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/cache/60")).response() }
        #expect(response.head?.headers["Cache-Control"] == "public, max-age=60")
    }
}
