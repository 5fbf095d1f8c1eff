import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct RedirectGuardTests {
    @Test(arguments: ["Authorization", "authorization", "COOKIE", "Proxy-Authorization"])
    func aRequestWithCredentialsIsGuarded(_ name: String) throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.setValue("secret", forHTTPHeaderField: name)
        #expect(RedirectGuard.isNeeded(for: request))
    }

    @Test func aHeaderAnAuthActionUsesIsGuarded() throws {
        let auth = AuthTokenAction(for: ServerConfig(host: "api.test"), headerName: "X-Guard-Check-Key") { nil }
        let protected = AuthTokenAction.headers(setBy: [auth])
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.setValue("k", forHTTPHeaderField: "x-guard-check-key")
        #expect(RedirectGuard.isNeeded(for: request, alsoProtecting: protected))
    }

    @Test func aRequestWithoutCredentialsNeedsNoGuard() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        #expect(!RedirectGuard.isNeeded(for: request))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        #expect(!RedirectGuard.isNeeded(for: request))
    }

    @Test func aStreamedBodyIsGivenAgainFromItsFirstByteWhenTheSessionAsks() throws {
        let file = try TemporaryFile(named: "notes.txt", contents: Data("hello, again".utf8))
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .post("/notes", body: .file(file.url)))
        let request = try call.urlRequest()
        #expect(RedirectGuard.isDelegateNeeded(for: request), "a streamed body needs someone to answer needNewBodyStream")
        let original = try #require(request.httpBodyStream)
        _ = try readAll(original, chunkSize: 4)   // the first sending read it to its end

        let task = URLSession(configuration: .ephemeral).dataTask(with: request)
        let given = Locked<InputStream?>(nil)
        RedirectGuard.shared.urlSession(URLSession.shared, task: task, needNewBodyStream: { stream in given.withLock { $0 = stream } })
        let stream = try #require(given.withLock { $0 })
        #expect(stream !== original)
        #expect(try readAll(stream, chunkSize: 5) == Data("hello, again".utf8))
    }

    @Test func aBodyThatIsNotSalvosIsNotInvented() {
        var request = URLRequest(url: URL(string: "https://api.test/a")!)
        request.httpBody = Data("x".utf8)
        #expect(!RedirectGuard.isDelegateNeeded(for: request))
        let task = URLSession(configuration: .ephemeral).dataTask(with: request)
        #expect(RedirectGuard.newBodyStream(for: task) == nil)
    }
}
