import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// A scripted origin server for cache tests: answers `200` with ``State/headers`` and
/// ``State/body``, `304` to a request whose `If-None-Match` or `If-Modified-Since` matches, and
/// fails (a status or a transport error) while ``State/failure`` is set. Every request it sees
/// is kept (through `ScriptedSession`), so a test counts what reached the network.
final class CacheOrigin: Sendable {
    struct State {
        var headers: HTTPHeaders = ["Cache-Control": "max-age=60", "ETag": "\"v1\""]
        var body = "v1"
        var failure: ScriptedSession.Reply?
    }

    let state = Locked(State())
    let session: ScriptedSession

    init(headers: HTTPHeaders = ["Cache-Control": "max-age=60", "ETag": "\"v1\""], body: String = "v1") {
        let state = state
        state.withLock { $0.headers = headers; $0.body = body }
        session = ScriptedSession { request, _ in
            let current = state.withLock { $0 }
            if let failure = current.failure { return failure }
            if let etag = current.headers["ETag"], request.value(forHTTPHeaderField: "If-None-Match") == etag {
                return .status(304, headers: current.headers)
            }
            if let modified = current.headers["Last-Modified"], request.value(forHTTPHeaderField: "If-Modified-Since") == modified {
                return .status(304, headers: current.headers)
            }
            return .status(200, headers: current.headers, body: Data(current.body.utf8))
        }
    }

    /// The requests that reached the origin.
    var requests: [URLRequest] { session.requests }

    /// Changes what the origin answers from now on.
    func update(_ change: (inout State) -> Void) { state.withLock(change) }
}
