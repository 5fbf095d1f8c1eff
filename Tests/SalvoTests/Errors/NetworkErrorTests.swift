import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct NetworkErrorTests {
    @Test func urlErrorsBecomeTransportAndCancelledBecomesCancelled() {
        #expect(NetworkError(URLError(.cancelled)).isCancelled)
        #expect(NetworkError(CancellationError()).isCancelled)
        guard case .transport(let error) = NetworkError(URLError(.timedOut)) else { Issue.record("not transport"); return }
        #expect(error.code == .timedOut)
    }

    @Test func nsErrorsInTheURLDomainMapLikeURLErrors() {
        let lost = NSError(domain: NSURLErrorDomain, code: URLError.Code.networkConnectionLost.rawValue)
        guard case .transport(let error) = NetworkError(lost) else { Issue.record("not transport"); return }
        #expect(error.code == .networkConnectionLost)
        #expect(NetworkError(NSError(domain: NSURLErrorDomain, code: URLError.Code.cancelled.rawValue)).isCancelled)
    }

    @Test func anyOtherErrorBecomesAnUnknownTransportErrorKeepingItsDescription() {
        struct Weird: Error {}
        guard case .transport(let error) = NetworkError(Weird()) else { Issue.record("not transport"); return }
        #expect(error.code == .unknown)
        #expect(NetworkError(Weird()).description.contains("Weird"))
    }

    @Test func networkErrorsPassThroughUnchanged() {
        let original = NetworkError.serverStatus(ResponseProblem(statusCode: 418, url: nil, body: nil))
        #expect(NetworkError(original).statusCode == 418)
    }

    @Test(arguments: [
        (NetworkError.invalidRequest(RequestProblem(.port, "port 70000 is outside 1–65535")), ["port", "70000"]),
        (NetworkError.transport(URLError(.timedOut)), ["timed out"]),
        (NetworkError.serverStatus(ResponseProblem(statusCode: 404, url: URL(string: "https://a.com/x"), body: Data(#"{"message":"gone"}"#.utf8))), ["https://a.com/x", "404", "gone"]),
        (NetworkError.cancelled, ["cancelled"]),
    ])
    func descriptionsTellAPersonWhatHappened(_ error: NetworkError, _ words: [String]) {
        let text = error.description
        for word in words { #expect(text.contains(word), "\(text)") }
        #expect("\(error)" == text)
    }

    /// One rule for `NetworkError` and `APIError`: `localizedDescription` is for the person using
    /// the app (the user message: no URL, no body), `description` for the developer. Before the
    /// fix a `NetworkError`'s `localizedDescription` was the developer's text.
    @Test(arguments: [
        NetworkError.transport(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://a.example/x?token=t0p")!])),
        .serverStatus(ResponseProblem(statusCode: 500, url: URL(string: "https://a.example/x"), body: Data(#"{"message":"db down"}"#.utf8))),
        .invalidRequest(RequestProblem(.port, "port 70000 is outside 1–65535")),
    ])
    func localizedDescriptionIsForPeopleAndDescriptionForDevelopers(_ error: NetworkError) {
        #expect(error.localizedDescription == error.userMessage)
        #expect(APIError<String>(error: error, body: nil).localizedDescription == error.localizedDescription)
        #expect(APIError<String>(error: error, body: nil).description == error.description)
        #expect(!error.localizedDescription.contains("a.example"))
        #expect(!error.localizedDescription.contains("db down"))
        #expect(error.localizedDescription != error.description)
    }

    /// A sentence that starts with a URL keeps the URL as written. Before the fix: "Https://a.example/x redirected…".
    @Test(arguments: [URLError.Code.httpTooManyRedirects, .badServerResponse, .badURL, .userAuthenticationRequired])
    func aURLThatStartsADescriptionKeepsItsScheme(_ code: URLError.Code) throws {
        let url = try #require(URL(string: "https://a.example/x"))
        let text = NetworkError.transport(URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url])).description
        #expect(text.contains("https://a.example/x"), "\(text)")
        #expect(!text.contains("Https://"), "\(text)")
        #expect(text.first?.isUppercase == true, "\(text)")
    }

    @Test(arguments: [URLError.Code.timedOut, .networkConnectionLost, .cannotConnectToHost, .unknown])
    func aTransportFailureWithoutAFailingURLNamesTheRequestsURLRedacted(_ code: URLError.Code) async throws {
        // URLSession on Linux leaves failingURL empty; the scripted session does too.
        let session = ScriptedSession(.failure(code))
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/me", query: ["token": "s3cret-token"]), callbackQueue: .immediate, firingFunction: session.firingFunction)
        guard case .failure(let error) = await result(of: call), case .transport(let urlError) = error else { Issue.record("not a transport error"); return }
        #expect(urlError.code == code)
        #expect(urlError.failingURL?.absoluteString == "https://api.test/me?token=s3cret-token")
        #expect(error.description.contains("https://api.test/me?token=%3Credacted%3E"), "\(error)")
        #expect(error.description.contains("api.test"), "\(error)")
        #expect(!error.description.contains("s3cret-token"), "\(error)")
    }

    @Test func aFailingURLTheTransportSetIsKept() throws {
        let own = try #require(URL(string: "https://cdn.test/redirected"))
        let error = NetworkError(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: own]), requestURL: URL(string: "https://api.test/x"))
        guard case .transport(let urlError) = error else { Issue.record("not transport"); return }
        #expect(urlError.failingURL == own)
    }

    @Test func anAPIErrorThrownWhereANetworkErrorIsExpectedKeepsItsError() {
        let inner = NetworkError.serverStatus(ResponseProblem(statusCode: 401, url: nil, body: nil))
        #expect(NetworkError(APIError<String>(error: inner, body: nil)).statusCode == 401)
    }

    @Test func decodingDescriptionNamesTheTypeAndShowsTheBody() {
        let failure = DecodingProblem(URLError(.cannotDecodeContentData), body: Data("<html>".utf8), type: [Int].self)
        let text = NetworkError.decoding(failure).description
        #expect(text.contains("Array<Int>"))
        #expect(text.contains("<html>"))
    }

    @Test func longBodiesAreCutInDescriptions() {
        let body = Data(String(repeating: "x", count: 5_000).utf8)
        let text = NetworkError.serverStatus(ResponseProblem(statusCode: 500, url: nil, body: body)).description
        #expect(text.count < 400)
        #expect(NetworkError.serverStatus(ResponseProblem(statusCode: 500, url: nil, body: body)).responseBody == body)
    }

    private static let failing = URL(string: "http://api.test:8080/v1/me?access_token=s3cr3t") ?? URL(fileURLWithPath: "/")

    @Test(arguments: [
        (URLError.Code.notConnectedToInternet, "offline"),
        (.cannotConnectToHost, "Could not connect to api.test:8080"),
        (.timedOut, "http://api.test:8080/v1/me?access_token=%3Credacted%3E timed out"),
        (.cannotFindHost, "The host api.test:8080 could not be found"),
        (.dnsLookupFailed, "could not be found"),
        (.networkConnectionLost, "connection to http://api.test:8080/v1/me"),
        (.secureConnectionFailed, "secure (TLS) connection to api.test:8080"),
        (.serverCertificateUntrusted, "certificate"),
        (.httpTooManyRedirects, "redirected too many times"),
        (.badServerResponse, "not valid HTTP"),
        (.cannotDecodeContentData, "could not be read"),
        (.resourceUnavailable, "URL error -1008"),
        (.backgroundSessionWasDisconnected, "URL error -997"),
    ])
    func transportDescriptionsAreOneCleanSentenceNamingTheURL(_ code: URLError.Code, _ words: String) {
        let error = NetworkError.transport(URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: Self.failing]))
        let text = error.description
        #expect(text.contains(words), "\(text)")
        #expect(text.contains("api.test"), "\(text)")
        #expect(!text.contains("s3cr3t"), "\(text)")
        #expect(!text.contains("NSURLErrorDomain") && !text.contains("..") && !text.contains("Error Domain"), "\(text)")
        #expect(text.hasSuffix("."), "\(text)")
    }

    @Test func aTransportErrorWithoutAURLStillReadsAsASentence() {
        let text = NetworkError.transport(URLError(.notConnectedToInternet)).description
        #expect(text == "The device is offline, so the server could not be reached; check the network connection and try again.")
    }

    private struct User: Decodable { let id: Int }

    @Test(arguments: [
        (#"{"id":"7"}"#, #"The response could not be decoded as User: "id" should be a number. Body: {"id":"7"}"#),
        (#"{}"#, #"The response could not be decoded as User: missing "id". Body: {}"#),
        (#"{"id":null}"#, #"The response could not be decoded as User: "id" is null but should be a number. Body: {"id":null}"#),
    ])
    func decodingDescriptionsSayWhatIsWrongInOneSentence(_ body: String, _ expected: String) {
        let data = Data(body.utf8)
        do {
            _ = try JSONDecoder().decode(User.self, from: data)
            Issue.record("decoded \(body)")
        } catch {
            #expect(NetworkError.decoding(DecodingProblem(error, body: data, type: User.self)).description == expected)
        }
    }

    @Test func invalidJSONDoesNotEndInADoublePeriod() {
        let data = Data("<html>".utf8)
        do {
            _ = try JSONDecoder().decode(User.self, from: data)
        } catch {
            let text = NetworkError.decoding(DecodingProblem(error, body: data, type: User.self)).description
            #expect(!text.contains(".."), "\(text)")
            #expect(text.hasSuffix("Body: <html>"), "\(text)")
        }
    }

    @Test func aReasonEndingInAPeriodGetsOnlyOne() {
        let text = NetworkError.invalidRequest(RequestProblem(.body, "a GET has no body.")).description
        #expect(text == "The request was not sent because its body is invalid: a GET has no body.")
    }

    @Test func anUnreachableLoopbackPortGivesACleanMessage() async throws {
        // Port 1 on 127.0.0.1: nothing listens there, so the connection is refused at once.
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: 1)
        let call = NetCall(server: server, endpoint: .get("/users/42"))
        do {
            _ = try await withTimeout { try await call.response() }
            Issue.record("port 1 answered")
        } catch let error as NetworkError {
            let text = error.description
            #expect(text == "Could not connect to 127.0.0.1:1 to request http://127.0.0.1:1/users/42; check that the server is running and that the host and port are right.", "\(text)")
        }
    }
}
