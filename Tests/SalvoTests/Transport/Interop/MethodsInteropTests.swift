import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Every method, with JSON, form, text and binary bodies, as httpbin's `/anything` saw them.
@Suite(.requiresHTTPBin) struct MethodsInteropTests {
    struct Book: Codable, Sendable, Equatable {
        let id: Int
        let title: String
        let tags: [String]
        let isAvailable: Bool
    }

    enum Body: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case json, form, text, binary, none
        var testDescription: String { rawValue }

        static let sampleBook = Book(id: 7, title: "Ünïcode & \"quotes\"", tags: ["a", "b"], isAvailable: true)
        static let sampleBinary = Data((0...255).map(UInt8.init) + (0...255).reversed().map(UInt8.init))
        static let sampleText = "plain text, é ☃ and a line\nbreak"

        var request: RequestBody {
            switch self {
            case .json: .json(Self.sampleBook)
            case .form: .form(["name": "Ada Lovelace", "symbols": "a&b=c+d %é", "tag": "1", "tag": "2"])
            case .text: .text(Self.sampleText)
            case .binary: .data(Self.sampleBinary)
            case .none: .none
            }
        }
    }

    @Test(arguments: TransportUnderTest.all(with: [HTTPMethod.post, .put, .patch, .delete], Body.allCases))
    func aBodyArrivesExactlyAsSent(over transport: TransportUnderTest, method: HTTPMethod, body: Body) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let endpoint = Endpoint(method: method, path: "/anything/\(method.rawValue.lowercased())", body: body.request)
        let echo = try await withTimeout { try await httpbin.call(endpoint).value(as: HTTPBinEcho.self) }
        #expect(echo.method == method.rawValue)
        #expect(echo.url?.hasSuffix("/anything/\(method.rawValue.lowercased())") == true)
        switch body {
        case .json:
            #expect(echo.header("Content-Type") == "application/json")
            #expect(try JSONDecoder().decode(Book.self, from: echo.body ?? Data()) == Body.sampleBook)
            #expect(echo.json == .object([
                "id": .number(7), "title": .string(Body.sampleBook.title),
                "tags": .array([.string("a"), .string("b")]), "isAvailable": .bool(true),
            ]))
        case .form:
            #expect(echo.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
            #expect(echo.form == ["name": "Ada Lovelace", "symbols": "a&b=c+d %é", "tag": ["1", "2"]])
        case .text:
            #expect(echo.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(echo.data == Body.sampleText)
        case .binary:
            #expect(echo.header("Content-Type") == "application/octet-stream")
            #expect(echo.body == Body.sampleBinary)
        case .none:
            #expect(echo.data == "")
            #expect(echo.header("Content-Type") == nil)
        }
        if body != .none {
            #expect(echo.header("Content-Length") == httpbin.call(endpoint).sentBody.map { "\($0.count)" })
        }
    }

    @Test(arguments: TransportUnderTest.all, [HTTPMethod.get, .post, .put, .patch, .delete, "TRACE"])
    func theQueryAndHeadersArriveWithEveryMethod(over transport: TransportUnderTest, _ method: HTTPMethod) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let endpoint = Endpoint(
            method: method,
            path: "/anything/\("a b/c")",
            query: [URLQueryItem(name: "q", value: "x&y=z +é"), URLQueryItem(name: "tag", value: "1"), URLQueryItem(name: "tag", value: "2")],
            headers: ["X-Salvo-Test": "value 1", "Accept": "application/json"]
        )
        let echo = try await withTimeout { try await httpbin.call(endpoint).value(as: HTTPBinEcho.self) }
        #expect(echo.method == method.rawValue)
        #expect(echo.args == ["q": "x&y=z +é", "tag": ["1", "2"]])
        #expect(echo.header("X-Salvo-Test") == "value 1")
        #expect(echo.header("Accept") == "application/json")
        // httpbin rebuilds the URL from the decoded path, so the segment's %2F shows as "/".
        #expect(echo.url?.contains("/anything/a%20b/c?") == true, "\(echo.url ?? "no url")")
    }

    @Test(arguments: TransportUnderTest.all)
    func serverDefaultsAndEndpointHeadersBothArriveAndTheEndpointWins(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        var server = httpbin.server
        server.defaultHeaders = ["X-Client": "salvo-tests", "X-Override": "server", "User-Agent": "Salvo-Interop/1.0"]
        server.defaultQuery = [URLQueryItem(name: "api_key", value: "k1")]
        let call = NetCall(server: server, endpoint: .get("/anything", headers: ["X-Override": "endpoint"]), firingFunction: httpbin.firingFunction)
        let echo = try await withTimeout { try await call.value(as: HTTPBinEcho.self) }
        #expect(echo.header("X-Client") == "salvo-tests")
        #expect(echo.header("X-Override") == "endpoint")
        #expect(echo.header("User-Agent") == "Salvo-Interop/1.0")
        #expect(echo.args == ["api_key": "k1"])
    }

    @Test(arguments: TransportUnderTest.all)
    func aHEADRequestGetsTheHeadersWithoutABody(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.head("/anything")).response() }
        #expect(response.head?.statusCode == 200)
        #expect(response.data.isEmpty)
        #expect(response.head?.headers["Content-Type"] == "application/json")
    }

    @Test(arguments: TransportUnderTest.all)
    func anOPTIONSRequestListsTheAllowedMethods(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(Endpoint(method: "OPTIONS", path: "/anything")).response() }
        #expect(response.head?.statusCode == 200)
        let allowed = Set((response.head?.headers["Allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(allowed.isSuperset(of: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"]))
    }

    @Test(arguments: TransportUnderTest.all)
    func aTypedCallDecodesTheEchoAndBindsItsErrorBody(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = TypedCall<HTTPBinEcho, String>(httpbin.call(.post("/anything", body: .json(Body.sampleBook))))
        let response = try await withTimeout { try await call.response() }
        #expect(response.head?.statusCode == 200)
        #expect(response.value.method == "POST")
        #expect(response.head?.headers["Content-Type"] == "application/json")
    }
}
