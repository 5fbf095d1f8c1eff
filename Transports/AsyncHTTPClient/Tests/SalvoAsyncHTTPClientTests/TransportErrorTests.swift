import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
@_spi(Transport) import Salvo
@testable import SalvoAsyncHTTPClient
import Testing

/// AsyncHTTPClient's and SwiftNIO's errors become the `URLError`s `URLSession` gives, so that
/// `NetworkError` is the same whichever transport failed.
@Suite struct TransportErrorTests {
    private static let url = URL(string: "http://127.0.0.1:9/x")

    private func mapped(_ error: any Error) -> NetworkError {
        NetworkError(TransportError.map(error, url: Self.url))
    }

    private func code(_ error: any Error) -> URLError.Code? {
        guard case .transport(let urlError) = mapped(error) else { return nil }
        return urlError.code
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let error: any Error
        let code: URLError.Code
        var testDescription: String { "\(error) → \(code.rawValue)" }
    }

    static let cases: [Case] = [
        Case(error: HTTPClientError.readTimeout, code: .timedOut),
        Case(error: HTTPClientError.writeTimeout, code: .timedOut),
        Case(error: HTTPClientError.connectTimeout, code: .timedOut),
        Case(error: HTTPClientError.deadlineExceeded, code: .timedOut),
        Case(error: HTTPClientError.getConnectionFromPoolTimeout, code: .timedOut),
        Case(error: HTTPClientError.tlsHandshakeTimeout, code: .timedOut),
        Case(error: HTTPClientError.remoteConnectionClosed, code: .networkConnectionLost),
        Case(error: HTTPClientError.invalidURL, code: .badURL),
        Case(error: HTTPClientError.emptyHost, code: .badURL),
        Case(error: HTTPClientError.unsupportedScheme("ftp"), code: .unsupportedURL),
        Case(error: HTTPClientError.redirectLimitReached, code: .httpTooManyRedirects),
        Case(error: HTTPClientError.redirectCycleDetected, code: .httpTooManyRedirects),
        Case(error: HTTPClientError.uncleanShutdown, code: .secureConnectionFailed),
        Case(error: IOError(errnoCode: ECONNREFUSED, reason: "connect"), code: .cannotConnectToHost),
        Case(error: IOError(errnoCode: ECONNRESET, reason: "read"), code: .networkConnectionLost),
        Case(error: IOError(errnoCode: ETIMEDOUT, reason: "connect"), code: .timedOut),
        Case(error: ChannelError.connectTimeout(.seconds(1)), code: .timedOut),
        Case(error: ChannelError.eof, code: .networkConnectionLost),
        Case(error: ChannelError.ioOnClosedChannel, code: .networkConnectionLost),
        Case(error: HTTPParserError.invalidEOFState, code: .networkConnectionLost),
        Case(error: HTTPParserError.invalidChunkSize, code: .cannotParseResponse),
        Case(error: NIOHTTPDecompression.DecompressionError.inflationError(-3), code: .cannotDecodeContentData),
        Case(error: NIOHTTPDecompression.ExtraDecompressionError.truncatedData, code: .cannotDecodeContentData),
    ]

    @Test(arguments: cases)
    func eachFailureHasURLSessionsCode(_ testCase: Case) {
        #expect(code(testCase.error) == testCase.code)
    }

    @Test func theFailingURLIsKeptForTheMessage() {
        guard case .transport(let error) = mapped(HTTPClientError.remoteConnectionClosed) else {
            Issue.record("a transport error")
            return
        }
        #expect(error.failingURL == Self.url)
        #expect(mapped(HTTPClientError.remoteConnectionClosed).description.contains("127.0.0.1:9/x"))
    }

    @Test func cancellationIsNetworkErrorCancelled() {
        #expect(mapped(HTTPClientError.cancelled).isCancelled)
        #expect(mapped(HTTPClientError.requestStreamCancelled).isCancelled)
    }

    @Test func aShutDownClientSaysSo() {
        let error = mapped(HTTPClientError.alreadyShutdown)
        guard case .transport = error else { Issue.record("got \(error)"); return }
        #expect(error.description.contains("has been shut down"))
    }

    @Test(arguments: [HTTPClientError.invalidHeaderFieldNames(["a b"]), .invalidHeaderFieldValues(["\u{1}"])])
    func anInvalidHeaderIsAnInvalidRequest(_ error: HTTPClientError) {
        guard case .invalidRequest(let problem) = mapped(error) else { Issue.record("got \(mapped(error))"); return }
        #expect(problem.part == .header)
    }

    @Test func aBodyLongerOrShorterThanItsContentLengthIsAnInvalidBody() {
        guard case .invalidRequest(let problem) = mapped(HTTPClientError.bodyLengthMismatch) else { Issue.record("not invalidRequest"); return }
        #expect(problem.part == .body)
    }

    @Test func aFailedBodyStreamIsTheBodysProblem() {
        guard case .invalidRequest(let problem) = mapped(BodyUploadError(reason: "the file /tmp/x shrank")) else { Issue.record("not invalidRequest"); return }
        #expect(problem.part == .body && problem.reason == "the file /tmp/x shrank")
    }

    @Test func errorsAlreadyInSalvosTermsPassThrough() {
        let refused = NetworkError.invalidRequest(RequestProblem(.method, "no"))
        #expect(mapped(refused).description == refused.description)
        #expect(code(URLError(.httpTooManyRedirects)) == .httpTooManyRedirects)
    }

    @Test func anythingElseIsUnknownWithItsDescription() {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd failure" } }
        guard case .transport(let error) = mapped(Odd()) else { Issue.record("not a transport error"); return }
        #expect(error.code == .unknown)
        #expect(mapped(Odd()).description.contains("odd failure"))
    }
}
