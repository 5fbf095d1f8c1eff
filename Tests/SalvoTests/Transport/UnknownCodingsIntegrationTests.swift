import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

/// What each transport does with a response it cannot take as sent: a coding it does not know
/// (`Content-Encoding`, `Transfer-Encoding`), and a redirect status without a `Location` to
/// follow. Linux `URLSession` fails the first and loses the body of the second (Docs/Linux.md).
@Suite struct UnknownCodingsIntegrationTests {
    func call(_ endpoint: Endpoint, over transport: TransportUnderTest) async throws -> NetCall {
        NetCall(server: try await .loopback(), endpoint: endpoint, callbackQueue: .immediate, firingFunction: transport.firing)
    }

    func outcome(_ call: NetCall) async throws -> Result<NetworkResponse, NetworkError> {
        do {
            return .success(try await withTimeout { try await call.response() })
        } catch let error as NetworkError {
            return .failure(error)
        }
    }

    func isTransportError(_ result: Result<NetworkResponse, NetworkError>) -> Bool {
        guard case .failure(.transport) = result else { return false }
        return true
    }

    @Test(arguments: TransportUnderTest.all(withPairs: [("content", "x-unknown"), ("transfer", "x-unknown")]))
    func anUnknownCoding(over transport: TransportUnderTest, _ field: String, _ coding: String) async throws {
        let call = try await call(.get("/coding", query: [field: coding]), over: transport)
        let result = try await outcome(call)
        if transport.has(.failsOnUnknownCodings) {
            #expect(isTransportError(result), "\(result)")
        } else {
            // Arrives as sent: the body the server labelled, undecoded.
            #expect(try result.get().data == Data("plain body".utf8))
        }
    }

    @Test(arguments: TransportUnderTest.all(with: [300, 301, 302, 303, 307, 308], [()]).map { ($0.0, $0.1) })
    func aRedirectWithoutLocationIsTheAnswer(over transport: TransportUnderTest, status: Int) async throws {
        let call = try await call(.get("/status/\(status)"), over: transport)
        let error = try #require(try await outcome(call).failure)
        #expect(error.statusCode == status)
        // 300 is no redirect to follow (Redirect.follows), so its body arrives on every transport.
        if transport.has(.dropsBodyOfRedirectWithoutLocation), status != 300 {
            #expect(error.responseBody?.isEmpty ?? true)
        } else {
            #expect(String(decoding: error.responseBody ?? Data(), as: UTF8.self).contains("\"status\": \(status)"))
        }
    }
}

private extension Result {
    var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
