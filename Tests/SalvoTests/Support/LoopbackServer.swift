import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The project's Python loopback server, started once per test process on an ephemeral 127.0.0.1 port.
///
/// Integration suites run in parallel against this one server, so stateful routes take a key
/// from ``uniqueKey()``. Routes are documented at the top of `loopback_server.py`.
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
            throw LoopbackServerError("cannot build a /_count URL for path \(path)")
        }
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await controlSession.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let count = object["count"] as? Int
        else {
            throw LoopbackServerError("unexpected /_count answer: \(String(decoding: data, as: UTF8.self))")
        }
        return count
    }

    private static let launcher = Launcher()

    /// The session for counting requests: its own connections, so a count never queues behind the
    /// slow requests parallel tests keep in flight on `URLSession.shared` (6 connections per host).
    private static let controlSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration)
    }()
}

/// A fresh namespace for the server's stateful routes, so parallel tests never share state.
func uniqueKey() -> String {
    "k" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
}

/// Why the loopback server could not be used; the description says what to fix.
struct LoopbackServerError: Error, CustomStringConvertible, LocalizedError {
    /// What went wrong, for a person.
    let description: String

    init(_ description: String) {
        self.description = description
    }

    var errorDescription: String? { description }
}

/// Starts the server exactly once; a failed start is remembered so every test fails fast with the same error.
private actor Launcher {
    private var start: Task<RunningServer, any Error>?

    func running() async throws -> RunningServer {
        if let start {
            return try await start.value
        }
        let task = Task { try await RunningServer.launch() }
        start = task
        return try await task.value
    }
}

/// A launched server, kept for the life of the test process: holding `stdinPipe` open keeps
/// the server alive (it exits at EOF on stdin), and Foundation's exit monitoring expects the
/// `Process` to outlive its child.
private final class RunningServer: Sendable {
    let port: Int
    let baseURL: URL
    private let process: Process
    private let stdinPipe: Pipe

    private init(port: Int, process: Process, stdinPipe: Pipe) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.process = process
        self.stdinPipe = stdinPipe
    }

    static let startupTimeout: TimeInterval = 10

    static func launch() async throws -> RunningServer {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("loopback_server.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw LoopbackServerError("the loopback server script is missing at \(script.path)")
        }
        let process = Process()
        let python = findPython()
        process.executableURL = python.executable
        process.arguments = python.leadingArguments + [script.path, "--port", "0"]
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe

        let stderrText = OutputTail()
        let stderrDone = DispatchGroup()
        stderrDone.enter()
        let stderrHandle = stderrPipe.fileHandleForReading
        // Drained for the whole run (a full pipe would block the server), on its own thread
        // rather than a Dispatch worker it would occupy forever.
        Thread {
            while case let chunk = stderrHandle.availableData, !chunk.isEmpty {
                stderrText.append(chunk)
            }
            stderrDone.leave()
        }.start()

        do {
            try process.run()
        } catch {
            throw LoopbackServerError("could not start \(python.executable.path): \(error)")
        }
        // run() has closed our copies of the child's pipe ends, so EOF on stdout means the server is gone.
        let port = try await readPort(from: stdoutPipe.fileHandleForReading, process: process, stdin: stdinPipe) {
            _ = stderrDone.wait(timeout: .now() + 2)
            return stderrText.text
        }
        return RunningServer(port: port, process: process, stdinPipe: stdinPipe)
    }

    /// Reads stdout until the `PORT n` line, the server exits, or the startup timeout passes.
    private static func readPort(
        from stdout: FileHandle,
        process: Process,
        stdin: Pipe,
        stderr: @escaping @Sendable () -> String
    ) async throws -> Int {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let pending = PendingContinuation(continuation)
            Thread {
                var buffer = Data()
                while true {
                    let chunk = stdout.availableData
                    if chunk.isEmpty {
                        process.waitUntilExit()
                        guard let continuation = pending.take() else { return }
                        let message = python3Missing(process)
                            ? pythonNotFoundMessage
                            : "the loopback server exited with status \(process.terminationStatus) before printing its port. stderr:\n\(stderr())"
                        continuation.resume(throwing: LoopbackServerError(message))
                        return
                    }
                    buffer.append(chunk)
                    if let port = portLine(in: buffer), let continuation = pending.take() {
                        continuation.resume(returning: port)
                        return
                    }
                }
            }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + startupTimeout) {
                guard let continuation = pending.take() else { return }
                // The child inherits the Dispatch thread's blocked signal mask, so SIGTERM
                // (`terminate()`) may never arrive before Python unblocks it; EOF on stdin
                // stops a running server, SIGKILL one stuck before that.
                try? stdin.fileHandleForWriting.close()
                kill(process.processIdentifier, SIGKILL)
                continuation.resume(throwing: LoopbackServerError(
                    "the loopback server did not print its port within \(Int(startupTimeout)) s. stderr:\n\(stderr())"
                ))
            }
        }
    }

    /// The port from a complete `PORT n` line, if the output holds one yet.
    private static func portLine(in output: Data) -> Int? {
        let text = String(decoding: output, as: UTF8.self)
        guard let end = text.lastIndex(of: "\n") else { return nil }
        return text[..<end].split(separator: "\n").lazy
            .filter { $0.hasPrefix("PORT ") }
            .compactMap { Int($0.dropFirst("PORT ".count).trimmingCharacters(in: .whitespacesAndNewlines)) }
            .first
    }

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

/// Hands a continuation to whichever racing callback (port read, exit, timeout) claims it first.
private final class PendingContinuation: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int, any Error>?

    init(_ continuation: CheckedContinuation<Int, any Error>) {
        self.continuation = continuation
    }

    /// The continuation for the first caller, nil for every later one.
    func take() -> CheckedContinuation<Int, any Error>? {
        lock.withLock {
            defer { continuation = nil }
            return continuation
        }
    }
}

/// The last few KB the server wrote to stderr, for startup error messages.
private final class OutputTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit = 16 * 1024

    func append(_ chunk: Data) {
        lock.withLock {
            data.append(chunk)
            if data.count > limit {
                data = Data(data.suffix(limit))
            }
        }
    }

    var text: String {
        lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}
