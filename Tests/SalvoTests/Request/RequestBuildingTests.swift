import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct RequestBuildingTests {
    let server = ServerConfig(host: "api.example.com", basePath: "api/v1", defaultHeaders: ["Accept": "application/json", "X-Client": "salvo"], defaultQuery: [URLQueryItem(name: "key", value: "k")])

    private func request(_ endpoint: Endpoint, on server: ServerConfig? = nil) throws -> URLRequest {
        try NetCall(server: server ?? self.server, endpoint: endpoint).urlRequest()
    }

    @Test func assemblesSchemeHostRoutePathAndQueryInOrder() throws {
        let built = try request(.get("/users", query: ["page": "2", "tag": "a", "tag": "b"]))
        #expect(built.url?.absoluteString == "https://api.example.com/api/v1/users?key=k&page=2&tag=a&tag=b")
        #expect(built.httpMethod == "GET")
    }

    @Test func switchingServersChangesOnlyTheOrigin() throws {
        let endpoint = Endpoint.get("/users")
        let local = ServerConfig(scheme: "http", host: "localhost", port: 3000, basePath: "api/v1")
        #expect(try request(endpoint, on: local).url?.absoluteString == "http://localhost:3000/api/v1/users")
        var v2 = server
        v2.basePath = "api/v2"
        #expect(try request(endpoint, on: v2).url?.absoluteString.hasPrefix("https://api.example.com/api/v2/users") == true)
    }

    @Test func endpointCanReplaceTheAPIRoute() throws {
        let built = try request(Endpoint.get("/search").onBasePath("api/v2"))
        #expect(built.url?.path == "/api/v2/search")
        let bare = try request(Endpoint.get("/health").onBasePath(""))
        #expect(bare.url?.path == "/health")
    }

    @Test func endpointHeadersOverrideServerDefaultsIgnoringCase() throws {
        let built = try request(.get("/x", headers: ["accept": "text/plain"]))
        #expect(built.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(built.value(forHTTPHeaderField: "X-Client") == "salvo")
    }

    @Test(arguments: ["a b", "&", "=", "+", "/", "%", "?", "#", "😀", "a&b=c+d/e%f"])
    func queryValuesAndPathSegmentsArePercentEncoded(_ text: String) throws {
        let built = try request(.get("/files/\(text)", query: [text: text]))
        let url = try #require(built.url)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.queryItems?.last == URLQueryItem(name: text, value: text))
        #expect(url.absoluteString.hasPrefix("https://api.example.com/api/v1/files/"))
        let segment = try #require(components.percentEncodedPath.split(separator: "/").last)
        #expect(segment.removingPercentEncoding == text)
    }

    @Test func jsonBodyIsEncodedWithContentType() throws {
        struct NewUser: Encodable { let userName: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let built = try request(.post("/users", body: .json(NewUser(userName: "ann"), encoder: encoder)))
        #expect(built.httpMethod == "POST")
        #expect(built.httpBody == Data(#"{"user_name":"ann"}"#.utf8))
        #expect(built.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func formBodyEncodesSpacesAsPlusAndReservedCharacters() throws {
        let built = try request(.post("/login", body: .form(["user": "a b", "pass": "p&=+%"])))
        #expect(built.httpBody == Data("user=a+b&pass=p%26%3D%2B%25".utf8))
        #expect(built.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func explicitContentTypeWins() throws {
        let built = try request(.put("/doc", body: .text("hi"), headers: ["content-type": "text/markdown"]))
        #expect(built.value(forHTTPHeaderField: "Content-Type") == "text/markdown")
    }

    @Test func customMethodsAndTimeoutsArePassedThrough() throws {
        let built = try request(Endpoint(method: "PURGE", path: "/cache").timeout(2.5))
        #expect(built.httpMethod == "PURGE")
        // Exact on every platform: Linux URLSession's transport rounds it (LinuxTransferTests).
        #expect(built.timeoutInterval == 2.5)
    }

    @Test func ipv6HostsAreBracketed() throws {
        let built = try request(.get("/x"), on: ServerConfig(scheme: "http", host: "::1", port: 8080))
        #expect(built.url?.absoluteString == "http://[::1]:8080/x")
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let server: ServerConfig
        let endpoint: Endpoint
        let part: RequestProblem.Part
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(name: "empty host", server: ServerConfig(host: ""), endpoint: .get("/x"), part: .host),
        BadInput(name: "host with spaces", server: ServerConfig(host: "api example.com"), endpoint: .get("/x"), part: .host),
        BadInput(name: "host with a path", server: ServerConfig(host: "api.example.com/v1"), endpoint: .get("/x"), part: .host),
        BadInput(name: "port 0", server: ServerConfig(host: "a.com", port: 0), endpoint: .get("/x"), part: .port),
        BadInput(name: "port 70000", server: ServerConfig(host: "a.com", port: 70_000), endpoint: .get("/x"), part: .port),
        BadInput(name: "scheme with colon", server: ServerConfig(scheme: "ht:tp", host: "a.com"), endpoint: .get("/x"), part: .scheme),
        BadInput(name: "scheme ftp", server: ServerConfig(scheme: "ftp", host: "example.com"), endpoint: .get("/x"), part: .scheme),
        BadInput(name: "scheme git+ssh", server: ServerConfig(scheme: "git+ssh", host: "a.com"), endpoint: .get("/x"), part: .scheme),
        BadInput(name: "path with ?", server: ServerConfig(host: "a.com"), endpoint: .get("/users?page=2"), part: .path),
        BadInput(name: "path with #", server: ServerConfig(host: "a.com"), endpoint: .get("/users#top"), part: .path),
        BadInput(name: "header value with CRLF", server: ServerConfig(host: "a.com"), endpoint: .get("/x", headers: ["X-A": "1\r\nX-Evil: 1"]), part: .header),
        BadInput(name: "header value with LF", server: ServerConfig(host: "a.com"), endpoint: .get("/x", headers: ["X-A": "1\nX"]), part: .header),
        BadInput(name: "header name with CRLF", server: ServerConfig(host: "a.com", defaultHeaders: ["X-A\r\nX-Evil": "1"]), endpoint: .get("/x"), part: .header),
        BadInput(name: "header name with space", server: ServerConfig(host: "a.com"), endpoint: .get("/x", headers: ["X A": "1"]), part: .header),
        BadInput(name: "unencodable JSON body", server: ServerConfig(host: "a.com"), endpoint: .post("/x", body: .json(Double.nan)), part: .body),
    ]

    @Test(arguments: badInputs)
    func badInputBecomesInvalidRequestNamingThePart(_ input: BadInput) {
        #expect {
            _ = try NetCall(server: input.server, endpoint: input.endpoint).urlRequest()
        } throws: { error in
            guard case .invalidRequest(let problem) = error as? NetworkError else { return false }
            return problem.part == input.part && !problem.reason.isEmpty
        }
    }

    @Test func baseURLStringBecomesAServer() throws {
        let local = try ServerConfig(baseURL: "http://localhost:3000/api/v1")
        #expect(local.scheme == "http")
        #expect(local.host == "localhost")
        #expect(local.port == 3000)
        #expect(try request(.get("/users"), on: local).url?.absoluteString == "http://localhost:3000/api/v1/users")
    }

    @Test(arguments: ["not a url", "", "/just/a/path", "http://", "https://a.com/x?y=1", "ftp://example.com/pub"])
    func badBaseURLStringThrowsInvalidRequest(_ text: String) {
        #expect(throws: NetworkError.self) { try ServerConfig(baseURL: text) }
    }

    @Test func headersCompareNamesCaseInsensitively() {
        var headers: HTTPHeaders = ["Content-Type": "a"]
        headers["content-type"] = "b"
        #expect(headers.fields.count == 1)
        #expect(headers["CONTENT-TYPE"] == "b")
        #expect(headers == ["CONTENT-TYPE": "b"])
        headers["Content-Type"] = nil
        #expect(headers.isEmpty)
    }
}
