import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportUnderTest {
    /// `URLSession`: `URLSession.shared`, or an ephemeral session where cookies must not be shared.
    static let urlSession = TransportUnderTest(
        name: "URLSession",
        session: URLSession.shared,
        makeIsolatedSession: { URLSession(configuration: .ephemeral) },
        differences: urlSessionDifferences
    )

    #if canImport(FoundationNetworking)
    private static let urlSessionDifferences: Set<Difference> = [.readsStreamedBodiesWhole, .losesTheHeadOfAWholeBodyThatTimedOut, .failsOnUnknownCodings, .dropsBodyOfRedirectWithoutLocation]
    #else
    private static let urlSessionDifferences: Set<Difference> = []
    #endif

    /// The transports this package's shared suites run over. The SalvoAsyncHTTPClient package
    /// runs the same suites over AsyncHTTPClient.
    static let all: [TransportUnderTest] = [.urlSession]
}
