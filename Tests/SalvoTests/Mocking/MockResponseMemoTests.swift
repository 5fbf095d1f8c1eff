import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

@Suite struct MockResponseMemoTests {
    private func response(_ memo: MockResponseMemo, _ path: String, status: Int = 200, headers: HTTPHeaders = ["Content-Type": "application/json"]) throws -> HTTPURLResponse {
        let url = try #require(URL(string: "https://api.example.com\(path)"))
        return try #require(memo.response(url: url, status: status, headers: headers))
    }

    @Test func theSameAnswerToTheSameURLReusesTheResponse() throws {
        let memo = MockResponseMemo()
        let first = try response(memo, "/users/1")
        let second = try response(memo, "/users/1")
        #expect(first === second)
        #expect(second.statusCode == 200)
        #expect(second.value(forHTTPHeaderField: "content-type") == "application/json")
    }

    @Test func anotherURLStatusOrHeaderGetsItsOwnResponse() throws {
        let memo = MockResponseMemo()
        let first = try response(memo, "/users/1")
        let otherURL = try response(memo, "/users/2")
        #expect(otherURL !== first)
        #expect(otherURL.url?.path == "/users/2")
        let otherStatus = try response(memo, "/users/2", status: 404)
        #expect(otherStatus.statusCode == 404)
        let otherHeaders = try response(memo, "/users/2", status: 404, headers: ["Content-Type": "text/plain"])
        #expect(otherHeaders.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        let otherNameCase = try response(memo, "/users/2", status: 404, headers: ["content-type": "text/plain"])
        #expect(otherNameCase !== otherHeaders)
    }

    @Test func mockFiringAnswersEachRequestWithItsOwnURL() async throws {
        let server = ServerConfig(host: "api.example.com")
        let firing = FiringFunction.mock(.json(["ok": true]))
        for id in [1, 1, 2] {
            let call = NetCall(server: server, endpoint: .get("/users/\(id)"), firingFunction: firing)
            let response = try await call.response()
            #expect(response.response?.url?.path == "/users/\(id)")
            #expect(response.statusCode == 200)
        }
    }
}
