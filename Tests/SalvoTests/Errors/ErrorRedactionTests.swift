import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Every text an error turns into (description, debugDescription, localizedDescription,
/// String(describing:), String(reflecting:), the logging action's lines) shows bodies with the
/// default redaction, as fixtures and cURL output do.
@Suite struct ErrorRedactionTests {
    private static let secrets = ["body-secret-456", "live-access-789", "live-refresh-012", "hunter2-pass", "query-secret-345"]

    /// Each text a person or a log may see for `error`.
    private static func texts(of error: any Error) -> [String] {
        [String(describing: error), String(reflecting: error), error.localizedDescription, "\(error)"]
            + [(error as? NetworkError)?.description, (error as? NetworkError).map { String(reflecting: $0) }].compactMap { $0 }
    }

    private static func expectNoSecret(in error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts(of: error) {
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) leaked into: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The issue's example: a 500 whose JSON body carries a token, on a URL whose query does.
    private static let serverError = NetworkError.serverStatus(ResponseProblem(
        statusCode: 500,
        url: URL(string: "https://api.example.com/me?token=query-secret-345"),
        body: Data(#"{"access_token":"body-secret-456"}"#.utf8),
        headers: ["Content-Type": "application/json"]
    ))

    private struct Session: Decodable { let user: String }

    /// The issue's `.decoding` error: a token reply that does not decode as the type asked for.
    private static func decodingError() -> NetworkError {
        let body = Data(#"{"access_token":"live-access-789","refresh_token":"live-refresh-012","expires_in":3600}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Session.self, from: body)
            return .cancelled
        } catch {
            return .decoding(DecodingProblem(error, body: body, type: Session.self))
        }
    }

    @Test func aServerStatusDescriptionRedactsTheBodyAndTheURL() {
        Self.expectNoSecret(in: Self.serverError)
        let text = Self.serverError.description
        #expect(text.contains("https://api.example.com/me?token=%3Credacted%3E answered with status 500"), "\(text)")
        #expect(text.contains(#""access_token":"<redacted>""#), "\(text)")
    }

    @Test func aDecodingDescriptionRedactsTheTokensItQuotes() {
        let error = Self.decodingError()
        Self.expectNoSecret(in: error)
        let text = error.description
        #expect(text.contains("missing \"user\""), "\(text)")
        #expect(text.contains(#""refresh_token":"<redacted>""#), "\(text)")
        #expect(text.contains("3600"), "fields that are not secret stay readable: \(text)")
    }

    @Test func anAPIErrorShowsNoSecretInAnyOfItsTexts() {
        struct Problem: Decodable, Sendable { let access_token: String }
        Self.expectNoSecret(in: APIError(error: Self.serverError, body: Problem(access_token: "body-secret-456")))
        Self.expectNoSecret(in: APIError<Problem>(error: Self.decodingError(), body: nil))
    }

    @Test(arguments: [
        ("application/x-www-form-urlencoded", "user=ann&password=hunter2-pass"),
        ("text/plain", "password=hunter2-pass&user=ann"),
        (nil, #"{"error":{"detail":{"password":"hunter2-pass"}}}"#),
    ] as [(String?, String)])
    func formAndNestedJSONFieldsAreRedactedWhateverTheContentType(_ contentType: String?, _ body: String) {
        let headers: HTTPHeaders = contentType.map { ["Content-Type": $0] } ?? [:]
        let error = NetworkError.serverStatus(ResponseProblem(statusCode: 422, url: nil, body: Data(body.utf8), headers: headers))
        Self.expectNoSecret(in: error)
        #expect(error.description.contains("<redacted>"), "\(error.description)")
    }

    @Test func aLongBodyIsRedactedBeforeItIsCut() {
        let padding = String(repeating: "x", count: 300)
        let body = Data(#"{"a":"\#(padding)","access_token":"body-secret-456"}"#.utf8)
        let error = NetworkError.decoding(DecodingProblem(URLError(.cannotDecodeContentData), body: body, type: Session.self))
        Self.expectNoSecret(in: error)
        #expect(error.description.contains("…"))
    }

    @Test func aRefusedResponseDescriptionRedactsItsURL() {
        let problem = ResponseProblem("not accepted", statusCode: 200, url: URL(string: "https://a.test/x?access_token=query-secret-345"))
        Self.expectNoSecret(in: NetworkError.unacceptableResponse(problem))
        #expect(problem.description.contains("access_token=%3Credacted%3E"))
    }

    @Test func theLoggingActionsFailureLineQuotesTheErrorRedacted() throws {
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/session")))
        let response = HTTPURLResponse(url: try #require(request.url), statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])
        var lines: [String] = []
        let logging = LoggingAction(sink: { _ in })
        lines.append(logging.responseMessage(AttemptOutcome(request: request, urlResponse: response, data: Data(), error: Self.decodingError())))
        lines.append(logging.responseMessage(AttemptOutcome(request: request, error: Self.serverError)))
        for line in lines {
            #expect(line.contains("<redacted>"), "\(line)")
            for secret in Self.secrets { #expect(!line.contains(secret), "\(secret) leaked into: \(line)") }
        }
    }

    @Test func curlOutputRedactsTheSameBodyFields() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/token?token=query-secret-345")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"refresh_token":"live-refresh-012","client_secret":"body-secret-456"}"#.utf8)
        let curl = request.curlCommand()
        for secret in Self.secrets { #expect(!curl.contains(secret), "\(secret) leaked into: \(curl)") }
        #expect(curl.contains(#""refresh_token":"<redacted>""#))
    }
}
