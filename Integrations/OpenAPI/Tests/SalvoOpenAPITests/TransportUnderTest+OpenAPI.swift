import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

extension TransportUnderTest {
    /// The transports the linked support folder lists: URLSession, which SalvoTransport fires
    /// through here (the comparison suites compare it with swift-openapi-urlsession instead).
    static let all: [TransportUnderTest] = [
        TransportUnderTest(
            name: "URLSession",
            session: URLSession.shared,
            makeIsolatedSession: { URLSession(configuration: .ephemeral) },
            differences: []
        ),
    ]
}
