import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import SalvoAsyncHTTPClient

extension TransportUnderTest {
    /// AsyncHTTPClient: the shared session, or, as an ephemeral `URLSession`, a session with a
    /// cookie storage and connections of its own (its client is shut down when it goes away).
    static let asyncHTTPClient = TransportUnderTest(
        name: "AsyncHTTPClient",
        session: AsyncHTTPClientSession.shared,
        makeIsolatedSession: { AsyncHTTPClientSession(cookieStorage: freshCookieStorage()) },
        differences: [.noBrotli, .losesHeldPartsAtADrop]
    )

    /// The transports this package runs Salvo's shared suites over.
    static let all: [TransportUnderTest] = [.asyncHTTPClient]

    /// An empty in-memory cookie storage, as an ephemeral `URLSession` has.
    static func freshCookieStorage() -> HTTPCookieStorage? {
        URLSessionConfiguration.ephemeral.httpCookieStorage
    }
}
