import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOPosix
@_spi(Transport) import Salvo
@testable import SalvoAsyncHTTPClient
import Testing

/// `URLRequest` to AsyncHTTPClient's request and AsyncHTTPClient's response head to
/// `HTTPURLResponse`: headers, bodies and bad input.
@Suite struct RequestConversionTests {
    private let eventLoop = MultiThreadedEventLoopGroup.singleton.any()

    private func request(_ url: String = "http://127.0.0.1:8080/a?b=1", method: String? = nil, headers: [String: String] = [:]) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test func methodURLAndHeadersAreSentAsWritten() throws {
        let converted = try request(method: "PATCH", headers: ["X-Trace": "t-1", "Accept": "application/json"]).asyncHTTPClientRequest(uploadingOn: eventLoop)
        #expect(converted.method == .PATCH)
        #expect(converted.url.absoluteString == "http://127.0.0.1:8080/a?b=1")
        #expect(converted.headers["X-Trace"] == ["t-1"])
        #expect(converted.headers["Accept"] == ["application/json"])
        #expect(converted.headers["User-Agent"] == ["Salvo (AsyncHTTPClient)"])
    }

    @Test func defaultsAreAddedOnlyWhereTheRequestHasNone() throws {
        let converted = try request(headers: ["user-agent": "mine/1"]).asyncHTTPClientRequest(uploadingOn: eventLoop)
        #expect(converted.headers["User-Agent"] == ["mine/1"])
        #expect(converted.headers["Accept"] == ["*/*"])
    }

    @Test func aDataBodyIsSentWithItsLength() throws {
        var original = try request(method: "POST")
        original.httpBody = Data("payload".utf8)
        let converted = try original.asyncHTTPClientRequest(uploadingOn: eventLoop)
        #expect(converted.body?.contentLength == 7)
    }

    @Test(arguments: [("123", 123), (" 42 ", 42), (nil, nil), ("-5", nil), ("lots", nil)] as [(String?, Int64?)])
    func aStreamIsSentWithTheRequestsContentLengthOrChunked(header: String?, length: Int64?) throws {
        var original = try request(method: "PUT", headers: header.map { ["Content-Length": $0] } ?? [:])
        original.httpBodyStream = InputStream(data: Data("abc".utf8))
        let converted = try original.asyncHTTPClientRequest(uploadingOn: eventLoop)
        #expect(converted.body != nil)
        #expect(converted.body?.contentLength == length)
    }

    @Test func noBodyIsNoBody() throws {
        #expect(try request().asyncHTTPClientRequest(uploadingOn: eventLoop).body == nil)
    }

    @Test(arguments: ["GET X", "GET\r\nX-Injected: 1", "", "GÉT"])
    func aMethodThatWouldRewriteTheRequestLineIsRefused(_ method: String) throws {
        let original = try request(method: method)
        #expect(throws: NetworkError.self) { try original.asyncHTTPClientRequest(uploadingOn: eventLoop) }
    }

    @Test(arguments: [("ftp://files.test/x", URLError.Code.unsupportedURL), ("http:///nohost", .badURL), ("file:///etc/hosts", .unsupportedURL)])
    func aURLTheClientCannotRequestFailsAsURLSessionDoes(url: String, code: URLError.Code) throws {
        let original = try request(url)
        let error = #expect(throws: URLError.self) { try original.asyncHTTPClientRequest(uploadingOn: eventLoop) }
        #expect(error?.code == code)
    }

    @Test func repeatedResponseFieldsAreJoinedUnderTheirFirstSpelling() {
        let headers = HTTPHeaders([("X-Tag", "a"), ("Content-Type", "text/plain"), ("x-tag", "b"), ("X-TAG", "c")])
        let url = URL(fileURLWithPath: "/")
        let fields = ResponseHead(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers), url: url).headers
        #expect(fields.map(\.name) == ["X-Tag", "Content-Type"])
        #expect(fields == ["X-Tag": "a, b, c", "Content-Type": "text/plain"])
    }

    @Test func aResponseHeadKeepsNIOsFieldsAndBecomesAnHTTPURLResponseWhenAsked() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/landed"))
        let head = ResponseHead(HTTPResponseHead(version: .http1_1, status: .created, headers: ["Content-Length": "12", "ETag": "\"v1\""]), url: url)
        #expect(head.statusCode == 201)
        #expect(head.value(forField: "etag") == "\"v1\"")
        let response = try #require(head.httpURLResponse)
        #expect(response.statusCode == 201)
        #expect(response.url == url)
        #expect(response.value(forHTTPHeaderField: "etag") == "\"v1\"")
        #expect(response.expectedContentLength == 12)
    }
}
