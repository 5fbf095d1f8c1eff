import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

extension NetCall {
    /// A call for `byteCount` bytes of the loopback server's pattern (byte i is i % 251), sent
    /// with a `Content-Length` in 1 MiB writes (`/stream/bytes`), fired through `session`.
    static func patternBytes(_ byteCount: Int, from server: ServerConfig, through session: URLSession) -> NetCall {
        NetCall(server: server, endpoint: .get("/stream/bytes", query: ["n": String(byteCount)]), firingFunction: .session(session))
    }
}
