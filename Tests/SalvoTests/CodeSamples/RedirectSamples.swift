import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

// The example in `URLRequest.redirected(by:redirectCount:credentialHeaders:)`'s documentation, kept here so it cannot rot.

func sendFollowingRedirects(
    _ original: URLRequest,
    send: (URLRequest) async throws -> (Data, HTTPURLResponse)
) async throws -> (Data, HTTPURLResponse) {
    var request = original, redirects = 0
    while true {
        let (body, response) = try await send(request)
        guard let next = try request.redirected(by: response, redirectCount: redirects) else {
            return (body, response)
        }
        request = next
        redirects += 1
    }
}

@Suite struct RedirectSamples {
    /// A server that sends `/old` to `/new` with a 308 and answers `/new` with what it received.
    private func send(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let url = try #require(request.url)
        let isOld = url.path == "/old"
        let response = try #require(HTTPURLResponse(url: url, statusCode: isOld ? 308 : 200, httpVersion: nil, headerFields: isOld ? ["Location": "/new"] : [:]))
        return (isOld ? Data() : Data("\(request.httpMethod ?? "GET") \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))".utf8), response)
    }

    @Test func aLoopAroundAnySenderFollowsRedirectsAsSalvoDoes() async throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/old")))
        request.httpMethod = "PUT"
        request.httpBody = Data("payload".utf8)
        let (body, response) = try await sendFollowingRedirects(request) { try send($0) }
        #expect(String(decoding: body, as: UTF8.self) == "PUT payload")
        #expect(response.url?.path == "/new")
    }
}
