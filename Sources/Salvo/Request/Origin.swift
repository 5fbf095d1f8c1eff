import Foundation

/// Scheme, host and port, compared the way browsers compare origins (host case-insensitively,
/// a missing port meaning the scheme's default, `ws`/`wss` as `http`/`https`).
struct Origin: Sendable, Hashable {
    let scheme: String
    let host: String
    let port: Int?

    init(scheme: String, host: String, port: Int?) {
        // A WebSocket goes to its HTTP counterpart's origin (its handshake is an HTTP request
        // there): an `AuthTokenAction` pinned to a `wss` server sends its token to that host's
        // `https` handshake, which is the URL its `prepare` sees.
        switch scheme.lowercased() {
        case "ws": self.scheme = "http"
        case "wss": self.scheme = "https"
        case let other: self.scheme = other
        }
        var bare = Substring(host.lowercased())
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        self.host = String(bare)
        self.port = port ?? Self.defaultPort(for: self.scheme)
    }

    /// Whether `url` is on this origin.
    func matches(_ url: URL) -> Bool {
        guard let scheme = url.scheme, let host = url.host else { return false }
        return Origin(scheme: scheme, host: host, port: url.port) == self
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
