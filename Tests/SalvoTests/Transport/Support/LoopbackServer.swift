import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The project's Python loopback server, started once per test process on an ephemeral 127.0.0.1 port.
///
/// Integration suites run in parallel against this one server, so stateful routes take a key
/// from ``uniqueKey()``. Routes are documented at the top of `Servers/loopback_server.py`.
/// ```swift
/// let url = try await LoopbackServer.baseURL().appendingPathComponent("echo")
/// let (data, _) = try await URLSession.shared.data(from: url)
/// ```
enum LoopbackServer {
    /// Base URL like http://127.0.0.1:54321 ; starts the server on first use (thread-safe, async).
    static func baseURL() async throws -> URL {
        try await launcher.running().baseURL
    }

    /// The server's port; starts the server on first use.
    static func port() async throws -> Int {
        try await launcher.running().port
    }

    /// Server-side request count for a raw path (uses /_count).
    ///
    /// - Parameter path: The path as sent on the wire, still percent-encoded, without the query.
    /// - Returns: How many requests of any method reached that path so far.
    static func count(path: String) async throws -> Int {
        // URLComponents leaves "&", "=" and "+" alone in query values; encode everything but unreserved.
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: unreserved) ?? path
        let base = try await baseURL()
        guard let url = URL(string: "\(base.absoluteString)/_count?path=\(encoded)") else {
            throw TestServerError("cannot build a /_count URL for path \(path)")
        }
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await controlSession.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let count = object["count"] as? Int
        else {
            throw TestServerError("unexpected /_count answer: \(String(decoding: data, as: UTF8.self))")
        }
        return count
    }

    private static let launcher = SharedServer {
        // Servers/ beside this file (a linked folder in the packages that share it); Python
        // finds the route modules beside the script's real path.
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Servers/loopback_server.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw TestServerError("the loopback server script is missing at \(script.path)")
        }
        let python = findPython()
        return try await ServerProcess.launch(
            name: "the loopback server",
            executable: python.executable,
            arguments: python.leadingArguments + [script.path, "--port", "0"],
            explainExit: { python3Missing($0) ? pythonNotFoundMessage : nil }
        )
    }

    /// The session for counting requests: its own connections, so a count never queues behind the
    /// slow requests parallel tests keep in flight on `URLSession.shared` (6 connections per host).
    private static let controlSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()

    private static let pythonNotFoundMessage =
        "python3 was not found on PATH; the integration tests start the loopback server with Python 3 (standard library only) — install python3"

    /// `python3` from PATH, else a few usual places, else `/usr/bin/env python3` (which may still fail).
    private static func findPython() -> (executable: URL, leadingArguments: [String]) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        for directory in directories where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return (candidate, [])
            }
        }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }

    /// `env` exits with 127 when it cannot find the command.
    private static func python3Missing(_ process: Process) -> Bool {
        process.executableURL?.path == "/usr/bin/env"
            && process.terminationReason == .exit
            && process.terminationStatus == 127
    }
}

/// A fresh namespace for the server's stateful routes, so parallel tests never share state.
func uniqueKey() -> String {
    "k" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
}

/// What `/stream/sse/<key>/stats` reports of a key's event stream connections.
struct EventStreamStats: Decodable, Equatable {
    let connections: Int
    /// The `Last-Event-ID` header of each connection, `nil` where there was none.
    let lastEventIDs: [String?]
    /// Whether a connection has sent the stream's last event.
    let completed: Bool

    enum CodingKeys: String, CodingKey {
        case connections, completed
        case lastEventIDs = "last_event_ids"
    }
}
