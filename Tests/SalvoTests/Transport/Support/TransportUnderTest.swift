import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// A transport the shared suites in `Tests/SalvoTests/Transport/` run over: a name, its session,
/// and what it is known to do differently from `URLSession`.
///
/// Each test target that links the folder says which transports it runs in `TransportUnderTest.all`
/// (the main package: `URLSession`; `Transports/AsyncHTTPClient`: AsyncHTTPClient). A shared test
/// takes the transport as its first argument and fires through it:
/// ```swift
/// @Test(arguments: TransportUnderTest.all)
/// func anEchoArrives(over transport: TransportUnderTest) async throws {
///     let call = NetCall(server: try await .loopback(), endpoint: .get("/echo"), firingFunction: transport.firing)
///     #expect(try await call.value(as: Echo.self).method == "GET")
/// }
/// ```
struct TransportUnderTest: Sendable, CustomTestStringConvertible {
    /// What the transport does differently, each documented in Docs/Linux.md or Docs/ServerSide.md.
    enum Difference: Sendable, Hashable {
        /// Bodies compressed with brotli (`Content-Encoding: br`) arrive compressed: the transport
        /// decodes gzip and deflate only.
        case noBrotli
        /// Body parts the client still holds when the connection drops are lost with it, so a
        /// Server-Sent Events stream may resume from an earlier event than the last one sent
        /// (the server sends the rest again: nothing is duplicated or lost for the reader).
        case losesHeldPartsAtADrop
        /// A body made while it is sent (`RequestBody.stream`) is read whole before the request
        /// goes out, so the upload starts only when the body has ended: corelibs `URLSession`
        /// cannot wait for a chunk without stopping every transfer of the process (Docs/Linux.md).
        case readsStreamedBodiesWhole
        /// A call that reads its body whole and times out after the head gets neither the head
        /// nor `task.response`: corelibs `URLSession` keeps it to itself, so the error cannot
        /// name the status (Docs/Linux.md).
        case losesTheHeadOfAWholeBodyThatTimedOut
        /// A response whose `Content-Encoding` or `Transfer-Encoding` names a coding the transport
        /// does not know fails the request (libcurl refuses to read it), rather than arriving as sent.
        case failsOnUnknownCodings
        /// The body of a 301, 302, 303, 307 or 308 without a `Location` is lost: the head arrives
        /// with an empty body (a 300 keeps its body).
        case dropsBodyOfRedirectWithoutLocation
    }

    /// The name test reports show.
    let name: String
    /// The session an app's calls use by default: `URLSession.shared`, `AsyncHTTPClientSession.shared`.
    let session: any NetworkSession
    /// Makes a session of its own with an empty cookie storage, for a test that must see no other
    /// test's cookies.
    let makeIsolatedSession: @Sendable () -> any NetworkSession
    /// What the suites expect this transport to do differently.
    let differences: Set<Difference>

    /// Fires through ``session``.
    var firing: FiringFunction { .session(session) }

    /// Whether the transport does `difference`.
    func has(_ difference: Difference) -> Bool { differences.contains(difference) }

    var testDescription: String { name }

    /// Every transport in ``all`` with every pair in `pairs`, flattened, so that a test whose
    /// cases are pairs keeps its two parameters.
    static func all<A: Sendable, B: Sendable>(withPairs pairs: [(A, B)]) -> [(TransportUnderTest, A, B)] {
        all.flatMap { transport in pairs.map { (transport, $0.0, $0.1) } }
    }

    /// Every transport in ``all`` with every pair of `first` and `second`, for a test with two
    /// collections of its own (Swift Testing takes at most two): one collection of triples,
    /// which Swift Testing hands to three parameters.
    static func all<First: Collection, Second: Collection>(
        with first: First, _ second: Second
    ) -> [(TransportUnderTest, First.Element, Second.Element)] where First.Element: Sendable, Second.Element: Sendable {
        all.flatMap { transport in first.flatMap { a in second.map { (transport, a, $0) } } }
    }
}
