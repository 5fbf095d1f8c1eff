import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct ResponseHeadTests {
    private let url = URL(string: "https://api.example.com/users/1")!

    @Test func aParsedHeadReadsItsFieldsWithoutAFoundationResponse() {
        let head = ResponseHead(statusCode: 404, headers: ["Content-Type": "application/json", "Content-Length": "12"], url: url)
        #expect(head.statusCode == 404)
        #expect(!head.isSuccess)
        #expect(head.headers["content-type"] == "application/json")
        #expect(head.value(forField: "CONTENT-LENGTH") == "12")
        #expect(head.expectedContentLength == 12)
        #expect(head.url == url)
    }

    @Test func repeatedFieldsReadAsOneJoinedInOrderUnderTheFirstSpelling() {
        let head = ResponseHead(statusCode: 200, fields: [
            HTTPHeaders.Field(name: "Vary", value: "Accept"),
            HTTPHeaders.Field(name: "ETag", value: "1"),
            HTTPHeaders.Field(name: "vary", value: "Origin"),
        ], url: url)
        #expect(head.value(forField: "VARY") == "Accept, Origin")
        #expect(head.value(forField: "Age") == nil)
        #expect(head.headers.fields.map(\.name) == ["Vary", "ETag"])
        #expect(head.headers["vary"] == "Accept, Origin")
        #expect(head.httpURLResponse?.value(forHTTPHeaderField: "vary") == "Accept, Origin")
    }

    @Test func theFoundationResponseIsMadeOnceAndKeepsEveryField() throws {
        let head = ResponseHead(statusCode: 201, headers: ["Content-Type": "text/plain", "X-Trace": "abc"], url: url)
        let first = try #require(head.httpURLResponse)
        let second = try #require(head.httpURLResponse)
        #expect(first === second, "made on first use, then kept")
        #expect(first.statusCode == 201)
        #expect(first.url == url)
        #expect(first.value(forHTTPHeaderField: "x-trace") == "abc")
        #expect(first.mimeType == "text/plain")
    }

    @Test func readersOnManyThreadsGetTheOneResponseMadeFromTheFields() async throws {
        let head = ResponseHead(statusCode: 200, headers: ["ETag": "7"], url: url)
        let copies = Array(repeating: head, count: 16)
        let responses = await withTaskGroup(of: URLResponse.self) { group in
            for copy in copies { group.addTask { copy.urlResponse } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let first = try #require(responses.first)
        #expect(responses.count == 16)
        #expect(responses.allSatisfy { $0 === first }, "made once for the head and all its copies")
        #expect(head.httpURLResponse === first)
        #expect((first as? HTTPURLResponse)?.value(forHTTPHeaderField: "etag") == "7")
    }

    @Test func aHeadOfAFoundationResponseHandsThatResponseBack() throws {
        let response = try #require(HTTPURLResponse(url: url, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": "2"]))
        let head = try #require(ResponseHead(response))
        #expect(head.urlResponse === response)
        #expect(head.statusCode == 503)
        #expect(head.value(forField: "retry-after") == "2")
        #expect(head.headers["Retry-After"] == "2")
    }

    @Test func aResponseThatIsNotHTTPHasNoStatusInTheOutcome() throws {
        let file = URL(fileURLWithPath: "/tmp/x.json")
        let head = try #require(ResponseHead(URLResponse(url: file, mimeType: "application/json", expectedContentLength: 4, textEncodingName: nil)))
        let outcome = AttemptOutcome(request: nil, head: head, data: Data("true".utf8))
        #expect(outcome.statusCode == nil)
        #expect(outcome.httpResponse == nil)
        #expect((try? outcome.result.get()) == Data("true".utf8))
        #expect(NetworkResponse(data: Data(), head: head).statusCode == nil)
    }

    @Test func anOutcomeOutside2xxCarriesTheHeadsFieldsInItsProblem() {
        let head = ResponseHead(statusCode: 429, headers: ["Retry-After": "3"], url: url)
        let outcome = AttemptOutcome(request: nil, head: head, data: Data("slow down".utf8))
        guard case .failure(.serverStatus(let problem)) = outcome.result else {
            Issue.record("expected a server status, got \(outcome.result)")
            return
        }
        #expect(problem.statusCode == 429)
        #expect(problem.url == url)
        #expect(problem.headers["retry-after"] == "3")
        #expect(problem.body == Data("slow down".utf8))
    }

    @Test func settingAnOutcomesResponseReplacesItsHead() throws {
        var outcome = AttemptOutcome(request: nil, head: ResponseHead(statusCode: 200, url: url))
        outcome.urlResponse = try #require(HTTPURLResponse(url: url, statusCode: 401, httpVersion: nil, headerFields: nil))
        #expect(outcome.statusCode == 401)
        outcome.urlResponse = nil
        #expect(outcome.head == nil)
    }

    @Test func mockFiringAnswersEachRequestWithItsOwnURL() async throws {
        let server = ServerConfig(host: "api.example.com")
        let firing = FiringFunction.mock(.json(["ok": true]))
        for id in [1, 1, 2] {
            let call = NetCall(server: server, endpoint: .get("/users/\(id)"), firingFunction: firing)
            let response = try await call.response()
            #expect(response.url?.path == "/users/\(id)")
            #expect(response.urlResponse?.url?.path == "/users/\(id)")
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Type"] == "application/json")
        }
    }

    @Test func responseHandlersStillHearTheResponseOfAParsedHead() async throws {
        let heard = Locked<(response: URLResponse?, http: HTTPURLResponse?)>((nil, nil))
        var call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/a"), callbackQueue: .immediate, firingFunction: .mock(.status(204)))
        call.responder.responseHandler = { response in heard.withLock { $0.response = response } }
        call.responder.httpResponseHandler = { response in heard.withLock { $0.http = response } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            call.responder.dataHandler = { _ in done.resume() }
            call.fire()
        }
        let (response, http) = heard.withLock { $0 }
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        #expect(http?.statusCode == 204)
        #expect(response === http, "one response, made once")
    }
}
