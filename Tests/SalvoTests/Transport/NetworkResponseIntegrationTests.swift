import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// What an app reads of a response from the loopback server, over each transport: status, header
/// fields, links; and a query built at run time as the server receives it.
@Suite struct NetworkResponseIntegrationTests {
    @Test(arguments: TransportUnderTest.all)
    func statusCodeAndHeadersAreReadOnTheResponse(over transport: TransportUnderTest) async throws {
        let call = try await NetCall(server: .loopback(), endpoint: .get("/headers", query: ["X-Salvo-Test": "v1"]), firingFunction: transport.firing)
        let response = try await withTimeout { try await call.response() }
        #expect(response.statusCode == 200)
        #expect(response.headers["x-salvo-test"] == "v1")
        #expect(response.url?.path == "/headers")
    }

    @Test(arguments: TransportUnderTest.all)
    func everyLinkRelationOfAPageIsRead(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let call = try await NetCall(server: .loopback(), endpoint: .get("/list/\(key)/link", query: ["page": "2", "per_page": "5", "total": "23", "link_style": "relative"]),
                                     firingFunction: transport.firing)
        let response = try await withTimeout { try await call.response() }
        let url = try #require(response.url)
        for (relation, page) in [("next", 3), ("prev", 1), ("first", 1), ("last", 5)] {
            let target = try #require(response.links.url(forRelation: relation, relativeTo: url), "\(relation)")
            let components = try #require(URLComponents(url: target, resolvingAgainstBaseURL: false))
            #expect(target.host == url.host && target.port == url.port && target.path == "/list/\(key)/link", "\(relation)")
            #expect(components.queryItems?.first { $0.name == "page" }?.value == String(page), "\(relation)")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aRuntimeQueryWithANameWithoutAValueReachesTheServerEncoded(over transport: TransportUnderTest) async throws {
        let tags = ["swift", "c++", "a&b=c d", "ü"].map { URLQueryItem(name: "tag", value: $0) }
        let endpoint = Endpoint.get("/echo").adding(query: tags + [URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "n m", value: "")])
        let call = try await NetCall(server: .loopback(), endpoint: endpoint, firingFunction: transport.firing)
        let echo = try await withTimeout { try await call.value(as: Echo.self) }
        #expect(echo.query == "tag=swift&tag=c%2B%2B&tag=a%26b%3Dc%20d&tag=%C3%BC&flag&n%20m=")
        #expect(echo.queryPairs == [["tag", "swift"], ["tag", "c++"], ["tag", "a&b=c d"], ["tag", "ü"], ["flag"], ["n m", ""]])
    }
}
