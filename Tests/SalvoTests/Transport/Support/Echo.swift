import Foundation
@_spi(Transport) @testable import Salvo

/// What the loopback server's `/echo` route saw: the request exactly as it arrived.
struct Echo: Decodable, Sendable {
    let method: String
    let path: String
    let query: String
    let headers: [[String]]
    let body_base64: String

    /// The body bytes as received.
    var body: Data { Data(base64Encoded: body_base64) ?? Data() }

    /// The value of the first header named `name` (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    /// The raw query split into decoded (name, value) pairs, in order.
    var queryPairs: [[String]] {
        query.split(separator: "&").map { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? "" }
        }
    }
}

extension ServerConfig {
    /// The loopback test server: http://127.0.0.1:<ephemeral port>.
    static func loopback(basePath: EndpointPath = "", defaultHeaders: HTTPHeaders = [:]) async throws -> ServerConfig {
        ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port(), basePath: basePath, defaultHeaders: defaultHeaders)
    }
}
