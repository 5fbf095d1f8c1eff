import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// What each text of an ``APIError`` is for: `localizedDescription` for the person using the
/// app, `description` (and so `String(describing:)`, Swift Testing's "Caught error:") for logs.
@Suite struct APIErrorTests {
    private struct Problem: Decodable, Sendable { let message: String }

    private static let failure = APIError(
        error: .serverStatus(ResponseProblem(
            statusCode: 422,
            url: URL(string: "https://api.example.com/notes"),
            body: Data(#"{"message":"title is required"}"#.utf8),
            headers: ["Content-Type": "application/json"]
        )),
        body: Problem(message: "title is required")
    )

    @Test func describingItGivesTheDevelopersDescriptionNotAStructDump() {
        let text = String(describing: Self.failure)
        #expect(!text.contains("APIError<"), "\(text)")
        #expect(text == Self.failure.error.description)
        #expect(text.contains("https://api.example.com/notes answered with status 422"))
        #expect(text.contains("title is required"))
        #expect(String(reflecting: Self.failure) == text)
        #expect("\(Self.failure)" == text)
    }

    @Test func itsLocalizedDescriptionIsShortAndCarriesNoURLOrBody() {
        let text = Self.failure.localizedDescription
        #expect(text == "The server could not accept this request.")
        #expect(!text.contains("https://"))
        #expect(!text.contains("title is required"))
    }

    @Test(arguments: [
        (NetworkError.transport(URLError(.notConnectedToInternet)), "You appear to be offline. Check your connection and try again."),
        (NetworkError.transport(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://a.test/x") as Any])), "The server took too long to respond. Please try again."),
        (NetworkError.serverStatus(ResponseProblem(statusCode: 503, url: URL(string: "https://a.test/x"), body: nil)), "The server is busy. Please try again in a moment."),
        (NetworkError.serverStatus(ResponseProblem(statusCode: 500, url: URL(string: "https://a.test/x"), body: Data("boom".utf8))), "The server had a problem. Please try again later."),
        (NetworkError.serverStatus(ResponseProblem(statusCode: 404, url: nil, body: nil)), "This item could not be found. It may have been deleted."),
        (NetworkError.invalidRequest(RequestProblem(.port, "port 0 is outside 1–65535")), "The request could not be sent. Please try again later."),
        (NetworkError.decoding(DecodingProblem(URLError(.cannotParseResponse), body: Data("x".utf8), type: Int.self)), "The server's response could not be read. Please try again later."),
        (NetworkError.cancelled, "The request was cancelled."),
    ])
    func userMessagesAreShortSentencesWithoutDetail(_ error: NetworkError, _ message: String) {
        #expect(error.userMessage == message)
        #expect(APIError<Problem>(error: error, body: nil).localizedDescription == message)
        #expect(!error.userMessage.contains("a.test"))
    }

    @Test func swiftTestingReportsTheDescription() async {
        let session = ScriptedSession(.status(422, headers: ["Content-Type": "application/json"], body: Data(#"{"message":"title is required"}"#.utf8)))
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .post("/notes"), callbackQueue: .immediate, firingFunction: session.firingFunction)
        let error = await #expect(throws: APIError<Problem>.self) { try await TypedCall<Problem, Problem>(call).value() }
        let caught = error.map { String(describingForTest: $0) }
        #expect(caught?.contains("https://api.test/notes answered with status 422") == true, "\(caught ?? "nil")")
    }
}
