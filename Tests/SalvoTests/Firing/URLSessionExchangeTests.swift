import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// What `URLSession`'s exchange gives URLSession, and changes in a request before corelibs sees it.
@Suite struct URLSessionExchangeTests {
    @Test func aStreamedBodyIsGivenAgainFromItsFirstByteWhenTheSessionAsks() throws {
        let file = try TemporaryFile(named: "notes.txt", contents: Data("hello, again".utf8))
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .post("/notes", body: .file(file.url)))
        let request = try call.urlRequest()
        let original = try #require(request.httpBodyStream)
        _ = try readAll(original, chunkSize: 4)   // the first sending read it to its end

        let task = URLSession(configuration: .ephemeral).dataTask(with: request)
        let stream = try #require(URLSessionExchange.newBodyStream(for: task))
        #expect(stream !== original)
        #expect(try readAll(stream, chunkSize: 5) == Data("hello, again".utf8))
    }

    @Test func aBodyThatIsNotSalvosIsNotInvented() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/a")))
        request.httpBody = Data("x".utf8)
        let task = URLSession(configuration: .ephemeral).dataTask(with: request)
        #expect(URLSessionExchange.newBodyStream(for: task) == nil)
    }

    #if canImport(FoundationNetworking)
    @Test(arguments: [(0.3, 1.0), (0.5, 1.0), (1.0, 1.0), (1.5, 2.0), (2.5, 3.0), (60.0, 60.0)])
    func aTimeoutIsRoundedUpToWholeSecondsForCorelibs(seconds: Double, sent: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = seconds
        #expect(URLSessionExchange.withWholeSecondTimeout(request).timeoutInterval == sent)
    }

    @Test(arguments: [0.0, -1.0, Double.infinity])
    func aTimeoutCorelibsReadsAsNoneIsLeftAlone(_ seconds: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = seconds
        #expect(URLSessionExchange.withWholeSecondTimeout(request).timeoutInterval == request.timeoutInterval)
    }
    #endif
}
