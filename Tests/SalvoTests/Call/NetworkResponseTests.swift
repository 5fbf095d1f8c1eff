import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo  // not @testable: what this suite reads must be public
import SalvoTesting

/// What an app reads of a response: status, header fields, URL, links, through the public API.
@Suite struct NetworkResponseTests {
    private static let link = #"</v1/items?page=3>; rel="next", </v1/items?page=1>; rel="first", </v1/items?page=1>; rel="prev", <https://api.example.com/v1/items?page=9>; rel="last""#

    private func call() -> NetCall {
        NetCall(
            server: ServerConfig(host: "api.example.com", basePath: "v1"),
            endpoint: .get("/items", query: ["page": "2"]),
            firingFunction: .mock { _ in .json([1, 2, 3], status: 201, headers: ["ETag": "\"v7\"", "Link": Self.link]) }
        )
    }

    @Test func statusCodeHeadersAndURLAreReadOnTheResponse() async throws {
        let response = try await call().response()
        #expect(response.statusCode == 201)
        #expect(response.headers["etag"] == "\"v7\"")
        #expect(response.headers["ETAG"] == "\"v7\"")
        #expect(response.url?.absoluteString == "https://api.example.com/v1/items?page=2")
        #expect(response.httpURLResponse?.statusCode == 201)
    }

    @Test func everyLinkRelationIsReadAndResolvedAgainstTheResponseURL() async throws {
        let response = try await call().response()
        let links = response.links
        #expect(links.links.count == 4)
        #expect(links.target(forRelation: "next") == "/v1/items?page=3")
        #expect(links.url(forRelation: "prev", relativeTo: response.url)?.absoluteString == "https://api.example.com/v1/items?page=1")
        #expect(links.url(forRelation: "first", relativeTo: response.url)?.absoluteString == "https://api.example.com/v1/items?page=1")
        #expect(links.url(forRelation: "LAST", relativeTo: response.url)?.absoluteString == "https://api.example.com/v1/items?page=9")
        #expect(links.links.last?.relations == ["last"])
    }

    @Test func aResponseWithoutALinkHeaderHasNoLinks() async throws {
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/x"), firingFunction: .mock { _ in .status(204) })
        let response = try await call.response()
        #expect(response.statusCode == 204)
        #expect(response.links.links.isEmpty)
        #expect(response.links.target(forRelation: "next") == nil)
    }

    @Test func aTypedResponseReadsTheSameNames() async throws {
        let typed = try await TypedCall<[Int], String>(call()).response()
        #expect(typed.value == [1, 2, 3])
        #expect(typed.statusCode == 201)
        #expect(typed.headers["ETag"] == "\"v7\"")
        #expect(typed.links.target(forRelation: "last") == "https://api.example.com/v1/items?page=9")
    }

    @Test func addingQueryTakesARuntimeArrayAndNamesWithoutAValue() throws {
        let tags = ["swift", "c++", "a&b=c d"].map { URLQueryItem(name: "tag", value: $0) }
        let endpoint = Endpoint.get("/search", query: ["q": "ü"])
            .adding(query: tags + [URLQueryItem(name: "exact", value: nil), URLQueryItem(name: "empty", value: "")])
        #expect(endpoint.query.map(\.name) == ["q", "tag", "tag", "tag", "exact", "empty"])
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: endpoint)
        let url = try #require(call.urlRequest().url)
        #expect(url.query == "q=%C3%BC&tag=swift&tag=c%2B%2B&tag=a%26b%3Dc%20d&exact&empty=")
    }
}
