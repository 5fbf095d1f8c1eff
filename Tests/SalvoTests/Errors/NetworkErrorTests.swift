import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Salvo

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
        #expect(NetworkError(Weird()).localizedDescription.contains("Weird"))
    }

    @Test func networkErrorsPassThroughUnchanged() {
        let original = NetworkError.serverStatus(ServerFailure(statusCode: 418, url: nil, body: nil))
        #expect(NetworkError(original).statusCode == 418)
    }

    @Test(arguments: [
        (NetworkError.invalidRequest(RequestProblem(.port, "port 70000 is outside 1–65535")), ["port", "70000"]),
        (NetworkError.transport(URLError(.timedOut)), ["timed out"]),
        (NetworkError.serverStatus(ServerFailure(statusCode: 404, url: URL(string: "https://a.com/x"), body: Data(#"{"message":"gone"}"#.utf8))), ["https://a.com/x", "404", "gone"]),
        (NetworkError.cancelled, ["cancelled"]),
    ])
    func descriptionsTellAPersonWhatHappened(_ error: NetworkError, _ words: [String]) {
        let text = error.localizedDescription
        for word in words { #expect(text.contains(word), "\(text)") }
        #expect(error.description == text)
    }

    @Test func decodingDescriptionNamesTheTypeAndShowsTheBody() {
        let failure = DecodingFailure(URLError(.cannotDecodeContentData), body: Data("<html>".utf8), type: [Int].self)
        let text = NetworkError.decoding(failure).localizedDescription
        #expect(text.contains("Array<Int>"))
        #expect(text.contains("<html>"))
    }

    @Test func longBodiesAreCutInDescriptions() {
        let body = Data(String(repeating: "x", count: 5_000).utf8)
        let text = NetworkError.serverStatus(ServerFailure(statusCode: 500, url: nil, body: body)).localizedDescription
        #expect(text.count < 400)
        #expect(NetworkError.serverStatus(ServerFailure(statusCode: 500, url: nil, body: body)).responseBody == body)
    }
}
